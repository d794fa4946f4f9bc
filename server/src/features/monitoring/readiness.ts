import type { FastifyInstance } from 'fastify';
import { MonitoringMessages, type ReadinessAnswer } from '@edu/domain/monitoring/monitoring';
import { pingDatabase } from './monitoring-repository.ts';

/** How long the readiness check waits for the database's answer. */
export const READY_DB_TIMEOUT_MS = 2000;

/** Milliseconds the trivial query took, or null when it failed or did not answer in time. */
async function timeDatabase(app: FastifyInstance, timeoutMs: number): Promise<number | null> {
  const started = performance.now();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), timeoutMs);
  });
  try {
    const answered = pingDatabase(app.db).then(() => Math.round((performance.now() - started) * 10) / 10);
    return await Promise.race([answered, late]);
  } catch (err) {
    app.log.warn({ err }, 'readiness: the database did not answer');
    return null;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * GET /api/ready: the database is asked (a trivial query, at most `timeoutMs`); the optional parts
 * are told from this instance's setup, without calling anyone (a probe may come every few seconds).
 * The answer names modes, never hosts, folders or shop ids: it is public.
 */
export async function readiness(app: FastifyInstance, timeoutMs = READY_DB_TIMEOUT_MS): Promise<ReadinessAnswer> {
  const ms = await timeDatabase(app, timeoutMs);
  const { config } = app;
  const libreoffice = app.converters.office.missing() === null;
  const chromium = app.converters.html.missing() === null;
  const printing = libreoffice && chromium ? 'full' : libreoffice || chromium ? 'partial' : 'off';
  const payments = !config.yookassa.enabled ? 'off' : config.yookassa.sandbox ? 'sandbox' : 'yookassa';
  const cms = [config.cms.site && 'сайт', config.cms.journal && 'журнал'].filter(Boolean).join(' и ');
  return {
    ready: ms !== null,
    ...(ms === null ? { message: MonitoringMessages.databaseDown } : {}),
    database: { ok: ms !== null, kind: app.database.kind, ms },
    parts: {
      printing: {
        working: printing === 'full',
        mode: printing,
        detail: {
          full: 'LibreOffice и Chromium доступны',
          partial: `Доступен только ${libreoffice ? 'LibreOffice' : 'Chromium'}`,
          off: 'LibreOffice и Chromium не установлены',
        }[printing],
        libreoffice,
        chromium,
      },
      payments: {
        working: payments !== 'off',
        mode: payments,
        detail: { yookassa: 'ЮKassa', sandbox: 'Встроенная песочница ЮKassa (тестовый режим)', off: 'Онлайн-оплата отключена (PAYMENTS=off)' }[payments],
      },
      mail: config.smtpUrl
        ? { working: true, mode: 'smtp', detail: 'Письма уходят через SMTP-сервер' }
        : { working: false, mode: 'outbox', detail: 'Письма сохраняются в папку outbox и никому не уходят (SMTP_URL не задан)' },
      site: cms
        ? { working: true, mode: 'joomla', detail: `Joomla: ${cms}` }
        : { working: false, mode: 'off', detail: 'Сайт Joomla не подключён (CMS_URL не задан)' },
    },
  };
}
