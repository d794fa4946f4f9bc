import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
  /** YooKassa shop, or the built-in sandbox (sandbox: true) when no credentials are set. */
  yookassa: { sandbox: boolean; apiUrl: string; shopId: string; secretKey: string; vatCode: number; receipt: boolean };
  /** Durable job runner poll interval; 0 turns the runner off (tests run jobs by hand). */
  jobsIntervalMs: number;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const nodeEnv = env.NODE_ENV === 'production' ? 'production' : env.NODE_ENV === 'test' ? 'test' : 'development';
  const port = Number(env.PORT ?? 8080);
  const dataDir = path.resolve(repoRoot, env.DATA_DIR ?? 'data');
  const appUrl = (env.APP_URL ?? `http://localhost:${port}`).replace(/\/$/, '');
  const realShop = Boolean(env.YOOKASSA_SHOP_ID && env.YOOKASSA_SECRET_KEY);
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
    loginLimits: {
      perAccount: Number(env.LOGIN_LIMIT_PER_ACCOUNT ?? 10),
      perIp: Number(env.LOGIN_LIMIT_PER_IP ?? 50),
      windowMinutes: Number(env.LOGIN_LIMIT_WINDOW_MINUTES ?? 15),
    },
    yookassa: realShop
      ? {
          sandbox: false,
          apiUrl: env.YOOKASSA_API_URL ?? 'https://api.yookassa.ru/v3',
          shopId: env.YOOKASSA_SHOP_ID!,
          secretKey: env.YOOKASSA_SECRET_KEY!,
          vatCode: Number(env.YOOKASSA_VAT_CODE ?? 1),
          receipt: env.YOOKASSA_RECEIPT === 'true',
        }
      : { sandbox: true, apiUrl: `${appUrl}/sandbox/yookassa/v3`, shopId: 'sandbox', secretKey: 'sandbox-secret', vatCode: 1, receipt: false },
    jobsIntervalMs: Number(env.JOBS_INTERVAL_MS ?? 2000),
    ...overrides,
  };
}
