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
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<Config> = {}): Config {
  const nodeEnv = env.NODE_ENV === 'production' ? 'production' : env.NODE_ENV === 'test' ? 'test' : 'development';
  const port = Number(env.PORT ?? 8080);
  const dataDir = path.resolve(repoRoot, env.DATA_DIR ?? 'data');
  return {
    env: nodeEnv,
    port,
    host: env.HOST ?? '0.0.0.0',
    appUrl: (env.APP_URL ?? `http://localhost:${port}`).replace(/\/$/, ''),
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
    ...overrides,
  };
}
