import fs from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEFAULT_SITE_TIME_ZONE, isTimeZone } from './cms/joomla-client.ts';
import { defaultWorkerCount } from './worker-pool.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export interface Config {
  env: 'production' | 'development' | 'test';
  port: number;
  host: string;
  /** Public address of the app, used in mails and payment return urls. */
  appUrl: string;
  /** Real PostgreSQL when set; otherwise PGlite in dataDir. */
  databaseUrl: string | undefined;
  dataDir: string;
  webDist: string;
  smtpUrl: string | undefined;
  mailFrom: string;
  demoPassword: string;
  seedDemo: boolean;
  trustProxy: boolean | string;
  requestLog: boolean;
  oldCabinetUrl: string;
  loginLimits: { perAccount: number; perIp: number; windowMinutes: number };
  /** Registrations, and password mails asked for, per IP in 15 minutes each (REGISTER_LIMIT_PER_IP). */
  registerLimitPerIp: number;
  /**
   * YooKassa shop, or the built-in sandbox (sandbox: true) when no credentials are set outside
   * production; enabled: false when PAYMENTS=off. Sandbox credentials are filled in by buildApp
   * from the data folder (sandboxCredentials).
   */
  yookassa: { enabled: boolean; sandbox: boolean; apiUrl: string; shopId: string; secretKey: string; vatCode: number; receipt: boolean };
  /** Durable job runner poll interval; 0 turns the runner off (tests run jobs by hand). */
  jobsIntervalMs: number;
  /**
   * Joomla sites (Web Services API): the main site for services, the journal for publications
   * (decision 026); null when not set. timeZone: the site's zone, in which Joomla reads publish dates.
   */
  cms: { site: { url: string; token: string; timeZone?: string } | null; journal: { url: string; token: string; timeZone?: string } | null };
  /** Mass mailing: SMTP connections kept open, letters per minute at most (0 = no limit), tries per address. */
  mailing: { poolSize: number; ratePerMinute: number; maxAttempts: number };
  /** Private files on S3-compatible storage instead of DATA_DIR/files (needed with several instances). */
  s3: { endpoint?: string; region: string; bucket: string; accessKeyId: string; secretAccessKey: string; forcePathStyle: boolean; prefix?: string } | undefined;
  /** LibreOffice converter processes kept warm (.docx -> PDF); 0 turns the converter off. */
  officeConverters: number;
  /** Chromium for HTML -> PDF; empty turns it off. */
  chromiumPath: string;
  /**
   * Upload limits of users (operators are exempt): the live files of one user at most quotaMb
   * (0 = no quota); at most ratePerWindow upload requests per windowMinutes (0 = no limit). Files of
   * deleted documents and publications and replaced avatars leave the storage after retentionDays.
   */
  uploads: { quotaMb: number; ratePerWindow: number; windowMinutes: number; retentionDays: number };
  /**
   * Printing limits per instance (decision 021): prints in flight per account (one more is 429),
   * documents waiting for each converter (one more is 503); free accounts (no paid entry, not
   * operators): renders at once among all of them and renders waiting for that share (one more is
   * 503), prints in flight and per minute per address and per /24 or /64 (one more is 429; 0 = off).
   */
  print: {
    perUser: number;
    queueLimit: number;
    freeRenders: number;
    freeWaiting: number;
    perIp: number;
    perSubnet: number;
    perIpPerMinute: number;
    perSubnetPerMinute: number;
  };
  /**
   * Uniqueness checks: worker threads (default cores - 1, at least 1), tasks that may wait for one
   * (more answer "busy"), checks of one author the job runner runs at once, and a user's publications
   * awaiting their check beyond which a new text is refused (429); `savesWhilePending` saves of one
   * publication by a user (operators exempt) in `saveWindowMinutes` while its check waits or runs,
   * one more answers 429.
   */
  uniqueness: {
    workers: number;
    nice: number;
    queue: number;
    runningPerUser: number;
    pendingPerUser: number;
    savesWhilePending: number;
    saveWindowMinutes: number;
  };
  /**
   * The centre's Telegram bot (issue 33, decision 042); null when TELEGRAM_BOT_TOKEN is unset (the
   * settings say the centre has not connected Telegram, nothing is sent). Updates come by webhook
   * (`${appUrl}/api/telegram/webhook`, checked by the secret header) or by long polling (one instance).
   */
  telegram: {
    token: string;
    apiUrl: string;
    mode: 'webhook' | 'polling';
    webhookSecret: string;
    /** Moscow hour of the operators' daily summary. */
    summaryHour: number;
  } | null;
  /** GET /metrics (Prometheus) answers only with this bearer token; unset, the route is off (404) and nothing is measured. */
  metricsToken: string | undefined;
  /**
   * The console log: its level (LOG_LEVEL), and readable lines (pino-pretty) instead of JSON when
   * stdout is a terminal outside production.
   */
  log: { level: string; pretty: boolean };
}

export class ConfigError extends Error {}

export const NO_SHOP_IN_PRODUCTION =
  'Оплата не настроена: в режиме NODE_ENV=production нужны YOOKASSA_SHOP_ID и YOOKASSA_SECRET_KEY (встроенная песочница ЮKassa — только для проверки). ' +
  'Чтобы запустить без онлайн-оплаты, задайте PAYMENTS=off.\n' +
  'Payments are not configured: NODE_ENV=production needs YOOKASSA_SHOP_ID and YOOKASSA_SECRET_KEY (the built-in YooKassa sandbox is a test tool only). ' +
  'To run without online payments, set PAYMENTS=off.';

/**
 * The sandbox's shop id and secret key: random per data folder (kept in sandbox-yookassa.json, mode
 * 0600), so no two installs share them and nobody can guess them.
 */
export function sandboxCredentials(dataDir: string): { shopId: string; secretKey: string } {
  const file = path.join(dataDir, 'sandbox-yookassa.json');
  try {
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as { shopId?: unknown; secretKey?: unknown };
    if (typeof saved.shopId === 'string' && typeof saved.secretKey === 'string' && saved.secretKey.length >= 32)
      return { shopId: saved.shopId, secretKey: saved.secretKey };
  } catch {
    // first start in this folder
  }
  const fresh = { shopId: `sandbox-${randomBytes(4).toString('hex')}`, secretKey: `test_${randomBytes(24).toString('base64url')}` };
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(file, JSON.stringify(fresh), { mode: 0o600 });
  return fresh;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const nodeEnv = env.NODE_ENV === 'production' ? 'production' : env.NODE_ENV === 'test' ? 'test' : 'development';
  const port = Number(env.PORT ?? 8080);
  const dataDir = path.resolve(repoRoot, env.DATA_DIR ?? 'data');
  const appUrl = (env.APP_URL ?? `http://localhost:${port}`).replace(/\/$/, '');
  const realShop = Boolean(env.YOOKASSA_SHOP_ID && env.YOOKASSA_SECRET_KEY);
  const paymentsOff = env.PAYMENTS === 'off';
  // The sandbox is a test tool, never a payment method: production needs a real shop or PAYMENTS=off.
  if (nodeEnv === 'production' && !realShop && !paymentsOff) throw new ConfigError(NO_SHOP_IN_PRODUCTION);
  const siteZone = env.CMS_TIMEZONE || DEFAULT_SITE_TIME_ZONE;
  const journalZone = env.CMS_JOURNAL_TIMEZONE || siteZone;
  for (const zone of [siteZone, journalZone]) {
    if (!isTimeZone(zone))
      throw new ConfigError(
        `Неизвестный часовой пояс сайта: ${zone} (CMS_TIMEZONE, CMS_JOURNAL_TIMEZONE — например, Europe/Moscow).\nUnknown site time zone: ${zone}.`,
      );
  }
  return {
    env: nodeEnv,
    port,
    host: env.HOST ?? '0.0.0.0',
    appUrl,
    databaseUrl: env.DATABASE_URL || undefined,
    dataDir,
    webDist: path.resolve(repoRoot, 'web/dist'),
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? 'Учебный центр <no-reply@example.ru>',
    demoPassword: env.DEMO_PASSWORD ?? 'demo1234',
    seedDemo: nodeEnv !== 'production',
    trustProxy: env.TRUST_PROXY === undefined ? false : env.TRUST_PROXY === 'true' ? true : env.TRUST_PROXY,
    requestLog: env.REQUEST_LOG !== 'false',
    oldCabinetUrl: env.OLD_CABINET_URL ?? 'https://old.example.ru',
    registerLimitPerIp: Number(env.REGISTER_LIMIT_PER_IP ?? 20),
    loginLimits: {
      perAccount: Number(env.LOGIN_LIMIT_PER_ACCOUNT ?? 10),
      perIp: Number(env.LOGIN_LIMIT_PER_IP ?? 50),
      windowMinutes: Number(env.LOGIN_LIMIT_WINDOW_MINUTES ?? 15),
    },
    yookassa: realShop
      ? {
          enabled: !paymentsOff,
          sandbox: false,
          apiUrl: env.YOOKASSA_API_URL ?? 'https://api.yookassa.ru/v3',
          shopId: env.YOOKASSA_SHOP_ID!,
          secretKey: env.YOOKASSA_SECRET_KEY!,
          vatCode: Number(env.YOOKASSA_VAT_CODE ?? 1),
          receipt: env.YOOKASSA_RECEIPT === 'true',
        }
      : {
          enabled: !paymentsOff,
          sandbox: !paymentsOff && nodeEnv !== 'production',
          apiUrl: `${appUrl}/sandbox/yookassa/v3`,
          shopId: '',
          secretKey: '',
          vatCode: Number(env.YOOKASSA_VAT_CODE ?? 1),
          receipt: env.YOOKASSA_RECEIPT === 'true',
        },
    jobsIntervalMs: Number(env.JOBS_INTERVAL_MS ?? 2000),
    cms: {
      site: env.CMS_URL && env.CMS_TOKEN ? { url: env.CMS_URL, token: env.CMS_TOKEN, timeZone: siteZone } : null,
      journal: env.CMS_JOURNAL_URL && env.CMS_JOURNAL_TOKEN ? { url: env.CMS_JOURNAL_URL, token: env.CMS_JOURNAL_TOKEN, timeZone: journalZone } : null,
    },
    mailing: {
      poolSize: Number(env.MAIL_POOL_SIZE ?? 5),
      ratePerMinute: Number(env.MAILING_RATE_PER_MINUTE ?? 600),
      maxAttempts: Number(env.MAILING_MAX_ATTEMPTS ?? 5),
    },
    s3: env.S3_BUCKET
      ? {
          endpoint: env.S3_ENDPOINT || undefined,
          region: env.S3_REGION ?? 'ru-central1',
          bucket: env.S3_BUCKET,
          accessKeyId: env.S3_ACCESS_KEY_ID ?? '',
          secretAccessKey: env.S3_SECRET_ACCESS_KEY ?? '',
          forcePathStyle: env.S3_FORCE_PATH_STYLE !== 'false',
          prefix: env.S3_PREFIX || undefined,
        }
      : undefined,
    officeConverters: Number(env.OFFICE_CONVERTERS ?? 2),
    chromiumPath: env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    uploads: {
      quotaMb: Number(env.UPLOAD_QUOTA_MB ?? 200),
      ratePerWindow: Number(env.UPLOAD_RATE_LIMIT ?? 30),
      windowMinutes: Number(env.UPLOAD_RATE_WINDOW_MINUTES ?? 10),
      retentionDays: Number(env.DELETED_FILES_RETENTION_DAYS ?? 30),
    },
    print: {
      perUser: Math.max(1, Number(env.PRINTS_PER_USER ?? 2)),
      queueLimit: Math.max(1, Number(env.PRINT_QUEUE_LIMIT ?? 32)),
      freeRenders: Math.max(1, Number(env.PRINT_FREE_RENDERS ?? 1)),
      freeWaiting: Math.max(0, Number(env.PRINT_FREE_WAITING ?? 8)),
      perIp: Math.max(0, Number(env.PRINTS_PER_IP ?? 4)),
      perSubnet: Math.max(0, Number(env.PRINTS_PER_SUBNET ?? 8)),
      perIpPerMinute: Math.max(0, Number(env.PRINTS_PER_IP_PER_MINUTE ?? 30)),
      perSubnetPerMinute: Math.max(0, Number(env.PRINTS_PER_SUBNET_PER_MINUTE ?? 60)),
    },
    uniqueness: {
      workers: Math.max(1, Number(env.UNIQUENESS_WORKERS ?? defaultWorkerCount())),
      // The pool's threads give way to the request thread (niceness 0-19; 0 turns it off).
      nice: Math.min(19, Math.max(0, Number(env.UNIQUENESS_NICE ?? 10))),
      queue: Math.max(0, Number(env.UNIQUENESS_QUEUE ?? 8)),
      runningPerUser: Math.max(1, Number(env.UNIQUENESS_RUNNING_PER_USER ?? 1)),
      pendingPerUser: Math.max(1, Number(env.UNIQUENESS_PENDING_PER_USER ?? 5)),
      savesWhilePending: Math.max(1, Number(env.UNIQUENESS_SAVES_WHILE_PENDING ?? 10)),
      saveWindowMinutes: Math.max(1, Number(env.UNIQUENESS_SAVE_WINDOW_MINUTES ?? 1)),
    },
    telegram: env.TELEGRAM_BOT_TOKEN
      ? {
          token: env.TELEGRAM_BOT_TOKEN,
          apiUrl: (env.TELEGRAM_API_URL || 'https://api.telegram.org').replace(/\/$/, ''),
          mode: env.TELEGRAM_MODE === 'polling' ? 'polling' : 'webhook',
          // Telegram allows 1-256 characters A-Z a-z 0-9 _ -; without one set, a secret derived from the
          // token (the same on every instance, unknown to anyone without the token).
          webhookSecret: env.TELEGRAM_WEBHOOK_SECRET || createHash('sha256').update(`webhook:${env.TELEGRAM_BOT_TOKEN}`).digest('hex'),
          summaryHour: Math.min(23, Math.max(0, Number(env.TELEGRAM_SUMMARY_HOUR ?? 9))),
        }
      : null,
    metricsToken: env.METRICS_TOKEN || undefined,
    log: { level: env.LOG_LEVEL ?? 'info', pretty: nodeEnv !== 'production' && Boolean(process.stdout.isTTY) },
    ...overrides,
  };
}
