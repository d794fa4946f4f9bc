import path from 'node:path';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig, type Config } from './platform/config.ts';
import { openDatabase } from './platform/db.ts';
import { createMailer } from './platform/mail.ts';
import { prepareDatabase } from './platform/startup.ts';
import { scheduleStopListRefresh } from './features/publications/jobs.ts';
import { scheduleFilePurge } from './features/files/file-retention.ts';
import { scheduleVacuum } from './platform/db-maintenance.ts';
import { sweepUploadTmp } from './platform/uploads.ts';
import { scheduleReconcileSweep } from './features/payments/jobs.ts';
import { consoleLogger } from './platform/console-log.ts';
import { scheduleDailySummary, startTelegram } from './features/telegram/telegram-jobs.ts';

let config: Config;
try {
  config = loadConfig();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(`\n${err.message}\n`);
  process.exit(1);
}
const database = await openDatabase(config);
const app = await buildApp({
  config,
  database,
  mailer: (a) =>
    createMailer({
      smtpUrl: config.smtpUrl,
      outboxDir: path.join(config.dataDir, 'mail'),
      from: config.mailFrom,
      log: a.log,
      poolSize: config.mailing.poolSize,
    }),
  logger: await consoleLogger(config.log),
});

const demo = await prepareDatabase(database, config, app.files);

await sweepUploadTmp(config.dataDir);
await app.listen({ port: config.port, host: config.host });
// The bot's webhook (or long polling) once the app answers.
void startTelegram(app);
if (config.jobsIntervalMs > 0) {
  await scheduleStopListRefresh(app.db);
  await scheduleFilePurge(app.db);
  await scheduleVacuum(database);
  await scheduleReconcileSweep(app.db);
  if (config.telegram) await scheduleDailySummary(app.db, config.telegram.summaryHour);
  app.jobs.start(config.jobsIntervalMs);
}

const lines = [
  '',
  `  Кабинет учебного центра: ${config.appUrl}`,
  `  База данных: ${database.kind === 'pglite' ? `PGlite в ${path.join(config.dataDir, 'pglite')}` : 'PostgreSQL (DATABASE_URL)'}`,
  `  Почта: ${app.mailer.describe()}`,
  `  Файлы: ${app.files.describe()}`,
  `  Печать: ${app.converters.office.describe()}; ${app.converters.html.describe()}`,
  `  Telegram: ${config.telegram ? `бот, ${config.telegram.mode === 'polling' ? 'long polling' : 'вебхук'} (${config.telegram.apiUrl})` : 'не подключён (TELEGRAM_BOT_TOKEN)'}`,
  `  Оплата: ${!config.yookassa.enabled ? 'отключена (PAYMENTS=off)' : config.yookassa.sandbox ? 'тестовый режим (встроенная песочница ЮKassa)' : `ЮKassa, магазин ${config.yookassa.shopId}`}`,
];
if (demo) {
  lines.push(`  Демо-оператор:    ${demo.operator.email} / ${demo.operator.password}`);
  lines.push(`  Демо-пользователь: ${demo.user.email} / ${demo.user.password}`);
}
console.log(lines.join('\n') + '\n');
// LibreOffice boots in a few seconds: start the converters now, not on the first certificate.
void app.converters.office.warm().catch((err) => app.log.warn({ err }, 'LibreOffice converters did not start'));

// A stop (SIGTERM from a service manager, Ctrl-C): no new requests (new connections are refused,
// requests on open ones answer 503), the ones in flight finish, then the jobs, the converters
// (LibreOffice with their process groups, Chromium), the worker threads and the database are closed.
// The signal often arrives more than once (to the whole process group, and relayed by npm and tsx):
// only the first one counts. If the stop takes longer than SHUTDOWN_TIMEOUT_MS (default 20 s, below
// systemd's TimeoutStopSec), the process exits anyway; the converters' process groups are killed on
// exit (office-converter.ts) and the LibreOffice bridges end themselves when this process is gone.
let stopping = false;
const shutdownTimeoutMs = Number(process.env.SHUTDOWN_TIMEOUT_MS ?? 20_000);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'stopping');
    setTimeout(() => {
      app.log.error({ timeoutMs: shutdownTimeoutMs }, 'the stop took too long; exiting now');
      process.exit(1);
    }, shutdownTimeoutMs).unref();
    app
      .close()
      .then(() => database.close())
      .then(
        () => process.exit(0),
        (err: unknown) => {
          app.log.error({ err }, 'the stop failed');
          process.exit(1);
        },
      );
  });
}
