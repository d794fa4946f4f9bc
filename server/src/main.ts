import path from 'node:path';
import { buildApp } from './app.ts';
import { loadConfig } from './platform/config.ts';
import { openDatabase } from './platform/db.ts';
import { createMailer } from './platform/mail.ts';
import { prepareDatabase } from './platform/startup.ts';

const config = loadConfig();
const database = await openDatabase(config);
const app = await buildApp({
  config,
  database,
  mailer: (a) => createMailer({ smtpUrl: config.smtpUrl, outboxDir: path.join(config.dataDir, 'mail'), from: config.mailFrom, log: a.log }),
  logger: { level: process.env.LOG_LEVEL ?? 'info' },
});

const demo = await prepareDatabase(database, config);

await app.listen({ port: config.port, host: config.host });
if (config.jobsIntervalMs > 0) app.jobs.start(config.jobsIntervalMs);

const lines = [
  '',
  `  Кабинет учебного центра: ${config.appUrl}`,
  `  База данных: ${database.kind === 'pglite' ? `PGlite в ${path.join(config.dataDir, 'pglite')}` : 'PostgreSQL (DATABASE_URL)'}`,
  `  Почта: ${app.mailer.describe()}`,
  `  Оплата: ${config.yookassa.sandbox ? 'тестовый режим (встроенная песочница ЮKassa)' : `ЮKassa, магазин ${config.yookassa.shopId}`}`,
];
if (demo) {
  lines.push(`  Демо-оператор:    ${demo.operator.email} / ${demo.operator.password}`);
  lines.push(`  Демо-пользователь: ${demo.user.email} / ${demo.user.password}`);
}
console.log(lines.join('\n') + '\n');

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void app
      .close()
      .then(() => database.close())
      .finally(() => process.exit(0));
  });
}
