// Numeric codes shared by server and web (spec 01 §3, §9; spec 02 §9; spec 03 §4).

export const Role = { operator: 1, user: 2, guest: 3 } as const;
export type RoleCode = (typeof Role)[keyof typeof Role];
export const roleLabels: Record<RoleCode, string> = { 1: 'Оператор', 2: 'Пользователь', 3: 'Гость' };

// The two role tests: the server's access hook and policy modules, and the screens ask these
// instead of comparing roles themselves.

/** Whether the person (the signed-in one, or a user record) is an operator. */
export const isOperator = (user: { readonly role: number } | null | undefined) => user?.role === Role.operator;

/** Whether the user record is a guest (added by an operator, no password, never signs in). */
export const isGuest = (user: { readonly role: number } | null | undefined) => user?.role === Role.guest;

/**
 * Entry statuses: the spec's 1 not paid, 2 paid, 3 done, and 4 «Возврат»: cancelled with its money
 * refunded (docs/decisions/023): not printable, holds no seat, not payable.
 */
export const EntryStatus = { notPaid: 1, paid: 2, done: 3, refunded: 4 } as const;
export type EntryStatusCode = (typeof EntryStatus)[keyof typeof EntryStatus];
export const entryStatusLabels: Record<EntryStatusCode, string> = { 1: 'Не оплачена', 2: 'Оплачена', 3: 'Завершена', 4: 'Возврат' };
/** The statuses that count as paid (spec 03 §4, the pay filter): paid and done; not paid and «Возврат» are unpaid. */
export const PAID_ENTRY_STATUSES: readonly number[] = [EntryStatus.paid, EntryStatus.done];
/** Paid or done: the entry's money is with the centre (a refunded entry is neither). */
export const isPaidStatus = (status: number): boolean => PAID_ENTRY_STATUSES.includes(status);

export const PayType = { bank: 1, office: 2, online: 3, other: 4 } as const;
export type PayTypeCode = (typeof PayType)[keyof typeof PayType];
export const payTypeLabels: Record<PayTypeCode, string> = { 1: 'Банк', 2: 'Офис', 3: 'Онлайн', 4: 'Другое' };

/** Service participation_type: 1 in-person and remote, 2 in-person only, 3 remote only. */
export const ParticipationType = { both: 1, intramural: 2, extramural: 3 } as const;
/** One word per value on every screen and in the change log: a service's participation_type. */
export const participationTypeLabels: Record<number, string> = { 1: 'Очно и дистанционно', 2: 'Очно', 3: 'Дистанционно' };
/** An entry's is_extramural: 0 in person, 1 remote. */
export const extramuralLabels = { 0: 'Очно', 1: 'Дистанционно' } as const;
export const extramuralLabel = (isExtramural: boolean | number | null | undefined): string => (isExtramural ? extramuralLabels[1] : extramuralLabels[0]);
/** Service date_type: 1 specific dates, 2 permanent, 3 open dates. */
export const DateType = { specific: 1, permanent: 2, open: 3 } as const;

export const PublicationStatus = { rejected: 0, pending: 1, approved: 2, rework: 3, published: 4, journal: 5 } as const;
export const publicationStatusLabels: Record<number, string> = {
  0: 'Отклонена',
  1: 'Ожидает проверки',
  2: 'Одобрена',
  3: 'Требует доработок',
  4: 'Опубликована',
  5: 'Взято в журнал',
};

export const ContractStatus = { pending: 1, approved: 2, rejected: 3 } as const;
/** Review status: 0 pending, 1 accepted (published). */
export const ReviewStatus = { pending: 0, accepted: 1 } as const;

export const TemplateType = { certificate: 1, program: 2, regList: 3, page: 4, notification: 5, consent: 6, contract: 7 } as const;

/** Fixed dictionary ids the spec relies on. */
export const KnownIds = { contestServiceType: 11, internetPublicationSubtype: 5, welcomeEvent: 1, defaultMacroCategory: 2 } as const;

/** max_participants 0 means this default. */
export const DEFAULT_MAX_PARTICIPANTS = 27;
export const PAGE_SIZES = [15, 30, 100] as const;
export const DEFAULT_PAGE_SIZE = 15;

/** Events of dict_events the server raises (spec 03 §3 Event; id 1 is the welcome event). */
export const EventId = {
  welcome: 1,
  entryCreated: 2,
  entryPaid: 3,
  entryDone: 4,
  passwordForgot: 5,
  contractApproved: 6,
  contractRejected: 7,
  publicationApproved: 8,
  publicationRejected: 9,
  publicationRework: 10,
  publicationPublished: 11,
  packageExpired: 12,
  publicationInJournal: 13,
  paymentRefunded: 14,
  paymentCanceled: 15,
} as const;
export type EventIdValue = (typeof EventId)[keyof typeof EventId];
