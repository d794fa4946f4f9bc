import type { ComponentType } from 'react';
import {
  IconBell,
  IconBriefcase,
  IconBrush,
  IconBuildingCommunity,
  IconCalendarEvent,
  IconCalendarQuestion,
  IconCategory,
  IconCertificate,
  IconCircleCheck,
  IconClipboardCheck,
  IconCreditCard,
  IconDeviceTv,
  IconFileCheck,
  IconFilePlus,
  IconFileX,
  IconInfinity,
  IconKey,
  IconMedal,
  IconMessages,
  IconNews,
  IconPencil,
  IconPresentation,
  IconSchool,
  IconThumbDown,
  IconThumbUp,
  IconTrophy,
  IconUserPlus,
  IconUsersGroup,
  IconWorld,
} from '@tabler/icons-react';

type Icon = ComponentType<{ size?: number | string; stroke?: number }>;

/**
 * Icons the server names by their Tabler name (service types, notifications, date types). Only
 * these are bundled; an unknown name falls back to a neutral icon.
 */
const ICONS: Record<string, Icon> = {
  IconBell,
  IconBriefcase,
  IconBrush,
  IconBuildingCommunity,
  IconCalendarEvent,
  IconCalendarQuestion,
  IconCategory,
  IconCertificate,
  IconCircleCheck,
  IconClipboardCheck,
  IconCreditCard,
  IconDeviceTv,
  IconFileCheck,
  IconFilePlus,
  IconFileX,
  IconInfinity,
  IconKey,
  IconMedal,
  IconMessages,
  IconNews,
  IconPencil,
  IconPresentation,
  IconSchool,
  IconThumbDown,
  IconThumbUp,
  IconTrophy,
  IconUserPlus,
  IconUsersGroup,
  IconWorld,
};

export function NamedIcon({ name, fallback = 'IconCategory', size = 20, stroke = 1.6 }: { name: string | null | undefined; fallback?: string; size?: number; stroke?: number }) {
  const Component = (name && ICONS[name]) || ICONS[fallback] || IconCategory;
  return <Component size={size} stroke={stroke} />;
}
