/**
 * The icon set of service types (Tabler names). The type edit modal offers these, the server
 * accepts only these, and /manager/icons shows them with a search and a preview.
 */
export const SERVICE_ICON_NAMES = [
  'IconPresentation',
  'IconDeviceTv',
  'IconSchool',
  'IconCertificate',
  'IconNews',
  'IconTrophy',
  'IconMedal',
  'IconAward',
  'IconBook',
  'IconBooks',
  'IconBrush',
  'IconPalette',
  'IconMicrophone',
  'IconUsersGroup',
  'IconWorld',
  'IconBriefcase',
  'IconBuildingCommunity',
  'IconCalendarEvent',
  'IconClipboardList',
  'IconFileCertificate',
  'IconFileText',
  'IconListDetails',
  'IconShieldCheck',
  'IconPencil',
  'IconMessages',
  'IconBulb',
  'IconChalkboard',
  'IconMathFunction',
  'IconAtom',
  'IconFlask',
  'IconMusic',
  'IconBallFootball',
  'IconLanguage',
  'IconHeartHandshake',
  'IconPuzzle',
  'IconTargetArrow',
  'IconRocket',
  'IconStar',
  'IconDeviceLaptop',
  'IconVideo',
  'IconBrain',
  'IconCategory',
] as const;
export type ServiceIconName = (typeof SERVICE_ICON_NAMES)[number];

/** Mantine palette colours offered for types and profiles. */
export const PALETTE_COLORS = ['gray', 'red', 'pink', 'grape', 'violet', 'indigo', 'blue', 'cyan', 'teal', 'green', 'lime', 'yellow', 'orange'] as const;
