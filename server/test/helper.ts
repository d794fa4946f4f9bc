import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomBytes, randomInt } from 'node:crypto';
import pg from 'pg';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import { inject } from 'vitest';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig, type Config } from '../src/platform/config.ts';
import { openPglite, openPostgres, type Database } from '../src/platform/db.ts';
import { createMailer } from '../src/platform/mail.ts';
import { createSession } from '../src/platform/auth.ts';
import { hashPassword } from '../src/platform/passwords.ts';
import { users, userProfiles } from '../src/db/schema/index.ts';

/** A copy of the migrated, dictionary-seeded test database for one test file. */
export async function openTestDatabase(): Promise<Database> {
  if (inject('dbKind') === 'pglite') {
    const dump = await fs.readFile(inject('pgliteDump'));
    return openPglite(undefined, { loadDataDir: new Blob([dump]) });
  }
  const template = inject('pgTemplate');
  const adminUrl = inject('pgAdminUrl');
  const name = `${template}_f${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name} template ${template}`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  const database = openPostgres(u.toString(), 10);
  const close = database.close;
  return {
    ...database,
    close: async () => {
      await close();
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`drop database if exists ${name} with (force)`);
      await a.end();
    },
  };
}

/** A real SMTP server on 127.0.0.1 that keeps what it receives. */
export async function startSmtp(): Promise<{
  url: string;
  mails: ParsedMail[];
  waitFor: (pred: (m: ParsedMail) => boolean, ms?: number) => Promise<ParsedMail>;
  close: () => Promise<void>;
}> {
  const mails: ParsedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((m) => {
          mails.push(m);
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    async waitFor(pred, ms = 5000) {
      const until = Date.now() + ms;
      for (;;) {
        const found = mails.find(pred);
        if (found) return found;
        if (Date.now() > until) throw new Error(`no mail matched within ${ms} ms; got: ${mails.map((m) => m.subject).join(', ')}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  smtp: Awaited<ReturnType<typeof startSmtp>>;
  /** Creates a user straight in the database. */
  createUser(
    attrs?: Partial<typeof users.$inferInsert> & { password?: string; profiles?: number[] },
  ): Promise<{ id: number; email: string; phone: string; password: string }>;
  /** Bearer headers of a fresh session of the user. */
  loginAs(user: { id: number }): Promise<Record<string, string>>;
  inject(opts: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** The app on a fresh test database, or on `opts.database` (closed with the app). */
export async function createTestApp(overrides: Partial<Config> = {}, opts: { database?: Database } = {}): Promise<TestApp> {
  const database = opts.database ?? (await openTestDatabase());
  const smtp = await startSmtp();
  const outbox = await fs.mkdtemp(path.join(os.tmpdir(), 'edu-outbox-'));
  const config = loadConfig({ NODE_ENV: 'test' }, { smtpUrl: smtp.url, requestLog: false, dataDir: outbox, ...overrides });
  const app = await buildApp({
    config,
    database,
    mailer: (a) => createMailer({ smtpUrl: config.smtpUrl, outboxDir: outbox, from: config.mailFrom, log: a.log }),
  });
  await app.ready();
  return {
    app,
    database,
    smtp,
    inject: (opts) => app.inject(opts),
    async createUser(attrs = {}) {
      const d = String(randomInt(0, 1e9)).padStart(9, '0');
      const password = attrs.password ?? 'secret-pass';
      const email = attrs.email ?? `user-${randomBytes(5).toString('hex')}@example.com`;
      const phone = attrs.phone ?? `+7 (9${d.slice(0, 2)}) ${d.slice(2, 5)}-${d.slice(5, 7)}-${d.slice(7, 9)}`;
      const [row] = await database.db
        .insert(users)
        .values({
          last_name: 'Петров',
          first_name: 'Пётр',
          middle_name: 'Петрович',
          organization: 'Школа № 1',
          job_title: 'Учитель',
          role: 2,
          ...attrs,
          email,
          phone,
          password: await hashPassword(password),
        })
        .returning({ id: users.id });
      if (attrs.profiles?.length) await database.db.insert(userProfiles).values(attrs.profiles.map((p) => ({ user_id: row.id, dict_profile_id: p })));
      return { id: row.id, email, phone, password };
    },
    async loginAs(user) {
      const session = await createSession(database.db, { userId: user.id, remember: false });
      return { authorization: `Bearer ${session.access_token}` };
    },
    async close() {
      await app.close();
      await smtp.close();
      await database.close();
      await fs.rm(outbox, { recursive: true, force: true });
    },
  };
}
