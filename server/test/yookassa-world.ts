import os from 'node:os';
import Fastify, { type FastifyInstance } from 'fastify';
import pino from 'pino';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/platform/config.ts';
import type { Database } from '../src/platform/db.ts';
import { createMailer } from '../src/platform/mail.ts';
import { createSession } from '../src/platform/auth.ts';
import { yookassaSandbox } from '../src/platform/payments/yookassa-sandbox.ts';
import { users } from '../src/db/schema/index.ts';
import { openTestDatabase, startSmtp } from './helper.ts';

export interface YookassaWorld {
  database: Database;
  smtp: Awaited<ReturnType<typeof startSmtp>>;
  provider: FastifyInstance;
  /** The sandbox's base URL (`${providerUrl}/pay/<uuid>` is its payment form). */
  providerUrl: string;
  /** The app now running; `startApp` replaces it. */
  app: FastifyInstance;
  /** Starts a new app instance on the same database (and makes it the one the sandbox calls back). */
  startApp(): Promise<FastifyInstance>;
  /** A user straight in the database with a fresh session. */
  user(role?: number): Promise<{ id: number; email: string; headers: Record<string, string> }>;
  /** Pays (or cancels) a payment on the sandbox's form, as the payer's browser would. */
  confirmOnProvider(uuid: string, action?: 'pay' | 'cancel'): Promise<Response>;
  close(): Promise<void>;
}

/**
 * The real YooKassa client against the YooKassa-like sandbox on 127.0.0.1, with the app listening
 * on 127.0.0.1 for the sandbox's webhooks and a real SMTP server catching the letters.
 */
export async function startYookassaWorld(
  options: { deliverWebhooks?: () => boolean; userTag?: string; refundsPending?: () => boolean } = {},
): Promise<YookassaWorld> {
  const database = await openTestDatabase();
  const smtp = await startSmtp();
  const provider = Fastify();
  let n = 0;
  const world: YookassaWorld = {
    database,
    smtp,
    provider,
    providerUrl: '',
    app: undefined as unknown as FastifyInstance,
    async startApp() {
      const config = loadConfig(
        { NODE_ENV: 'test' },
        {
          smtpUrl: smtp.url,
          requestLog: false,
          dataDir: os.tmpdir(),
          jobsIntervalMs: 0,
          yookassa: {
            enabled: true,
            sandbox: false,
            apiUrl: `${world.providerUrl}/v3`,
            shopId: 'test-shop',
            secretKey: 'test-secret',
            vatCode: 1,
            receipt: true,
          },
        },
      );
      const a = await buildApp({
        config,
        database,
        mailer: (x) => createMailer({ smtpUrl: smtp.url, outboxDir: os.tmpdir(), from: config.mailFrom, log: x.log }),
      });
      await a.listen({ port: 0, host: '127.0.0.1' });
      a.config.appUrl = `http://127.0.0.1:${(a.server.address() as { port: number }).port}`;
      world.app = a;
      return a;
    },
    async user(role = 2) {
      n++;
      const [u] = await database.db
        .insert(users)
        .values({
          email: `${options.userTag ?? 'pay'}${n}-${Date.now()}@example.com`,
          phone: `+7 (955) ${String(100 + n).padStart(3, '0')}-${String(Date.now() % 100).padStart(2, '0')}-${String(n % 100).padStart(2, '0')}`,
          last_name: 'Платёжная',
          first_name: 'Мария',
          role,
        })
        .returning({ id: users.id, email: users.email });
      const s = await createSession(database.db, { userId: u.id, remember: false });
      return { ...u, headers: { authorization: `Bearer ${s.access_token}` } };
    },
    confirmOnProvider: (uuid, action = 'pay') =>
      fetch(`${world.providerUrl}/pay/${uuid}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `action=${action}`,
        redirect: 'manual',
      }),
    async close() {
      await world.app.close();
      await provider.close();
      await smtp.close();
      await database.close();
    },
  };
  await provider.register(yookassaSandbox, {
    db: database.db,
    shopId: 'test-shop',
    secretKey: 'test-secret',
    webhookUrl: () => `${world.app.config.appUrl}/api/yookassa/webhook`,
    publicUrl: () => world.providerUrl,
    log: pino({ level: 'silent' }),
    deliverWebhooks: options.deliverWebhooks ?? (() => true),
    refundsPending: options.refundsPending,
    returnBase: () => world.app.config.appUrl,
  });
  await provider.listen({ port: 0, host: '127.0.0.1' });
  world.providerUrl = `http://127.0.0.1:${(provider.server.address() as { port: number }).port}`;
  await world.startApp();
  return world;
}

/** Waits until `check` holds (webhooks and jobs land a moment after the call that caused them). */
export async function until(check: () => Promise<boolean>, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 30));
  }
}
