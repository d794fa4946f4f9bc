import { z } from 'zod';

// What an administrator's tools read: GET /api/ready, whether this instance can serve (its database
// answers) and which optional parts work here (GET /api/health stays the cheap liveness answer, this
// one asks the database), and GET /metrics (Prometheus text, behind METRICS_TOKEN).

export const MonitoringMessages = {
  databaseDown: 'База данных не отвечает',
  metricsToken: 'Нужен заголовок Authorization: Bearer <METRICS_TOKEN>',
} as const;

/**
 * One optional part: whether it does its job for people here (`working`; the outbox stand-in of mail
 * does not, the payment sandbox of a test install does), how it is set up, and a word for the
 * administrator.
 */
const part = <M extends readonly [string, ...string[]]>(modes: M) =>
  z.object({
    working: z.boolean(),
    mode: z.enum(modes),
    detail: z.string(),
  });

export const readinessAnswer = z
  .object({
    /** True when the database answered: the instance can take requests. */
    ready: z.boolean(),
    /** Only when not ready: why, in Russian. */
    message: z.string().optional(),
    database: z.object({
      ok: z.boolean(),
      kind: z.enum(['pglite', 'postgres']),
      /** How long the trivial query took, or null when it failed or timed out. */
      ms: z.number().nullable(),
    }),
    parts: z.object({
      /** Printing: LibreOffice (.docx templates) and Chromium (HTML templates); working when both are available. */
      printing: part(['full', 'partial', 'off']).extend({ libreoffice: z.boolean(), chromium: z.boolean() }),
      /** Online payments: a YooKassa shop, the built-in sandbox (not in production), or off (PAYMENTS=off). */
      payments: part(['yookassa', 'sandbox', 'off']),
      /** Mail: an SMTP server, or .eml files in the outbox folder (nobody receives them). */
      mail: part(['smtp', 'outbox']),
      /** The Joomla site (services) and journal (publications), or off. */
      site: part(['joomla', 'off']),
    }),
  })
  .meta({ description: 'Готовность экземпляра: база данных и необязательные части' });
export type ReadinessAnswer = z.output<typeof readinessAnswer>;
