// Web-side configuration. Values can be overridden at build time with VITE_* variables.

/** Base address of the API; empty means the same origin (the server serves the SPA). */
export const API_URL: string = import.meta.env.VITE_API_URL ?? '';

/** The old cabinet, where earlier certificates and services stay available (spec 01 §1). */
export const OLD_CABINET_URL: string = import.meta.env.VITE_OLD_CABINET_URL ?? 'https://old.example.ru';

/** The requisites page linked from the footer. */
export const REQUISITES_URL: string = import.meta.env.VITE_REQUISITES_URL ?? 'https://example.ru/requisites';

/** The four external sites of the top-bar shortcuts menu. */
export const SHORTCUT_LINKS: ReadonlyArray<{ label: string; href: string }> = [
  { label: 'Сайт центра', href: 'https://example.ru' },
  { label: 'Электронный журнал', href: 'https://journal.example.ru' },
  { label: 'Дистанционное обучение', href: 'https://learn.example.ru' },
  { label: 'Конкурсы', href: 'https://contest.example.ru' },
];
