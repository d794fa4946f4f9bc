// Web-side configuration. Values can be overridden at build time with VITE_* variables.

/** Base address of the API; empty means the same origin (the server serves the SPA). */
export const API_URL: string = import.meta.env.VITE_API_URL ?? '';

/** The old cabinet, where earlier certificates and services stay available (spec 01 §1). */
export const OLD_CABINET_URL: string = import.meta.env.VITE_OLD_CABINET_URL ?? 'https://old.example.ru';
