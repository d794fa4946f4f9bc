import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { rows } from '../src/platform/db.ts';
import { hashPassword } from '../src/platform/passwords.ts';
import { createTestApp } from './helper.ts';
import { courseEntry, fillContractData, multipart, PDF, png, VALID_SNILS } from './documents-fixtures.ts';
import { apiRoutes, fillPath, routeKey } from './route-walk.ts';

// 152-FZ: every change to a person's data is traceable. This walks the app's own route table: every
// non-GET route under the paths of the users, documents, files, contracts and mail-settings
// features must either have a scenario below (and then it is called, and must leave a new
// change-log row of the person naming who acted) or be in ALLOWED with the reason it changes no
// personal data. A new route under these paths that is in neither list fails the walk.
//
// Routes a client may call run twice: in the client's own session, and in an operator's "login as"
// session (the row names the client as user_id and the operator as impersonator_id, decision 019).
// Operator-only routes run in the operator's own session.

const PERSONAL_DATA_PATHS = [
  /^\/api\/user(\/|$)/,
  /^\/api\/manager\/users(\/|$)/,
  /^\/api\/file(\/|$)/,
  /^\/api\/identity-document(\/|$)/,
  /^\/api\/contract(\/|$)/,
  /^\/api\/mail\/subscription$/,
  /^\/api\/login-as(\/|$)/,
  // The account's own forms outside /api: registration and the mailed password.
  /^\/(register|login|password-forgot|password-reset)$/,
];

/** Non-GET routes under those paths that change no personal data, each with the reason. */
const ALLOWED: Record<string, string> = {
  // A lookup by full name: POST only because the name goes in the body; it reads.
  'POST /api/user/get-by-fio': 'reads only',
  // Starting and ending "login as" are the operator's own acts, logged as login_as events
  // (manager-user-rules.ts; manager-users.test.ts checks them); no field of the person changes.
  'POST /api/manager/users/:id/login-as': 'session act, logged as an event',
  'POST /api/login-as/leave': 'session act, logged as an event',
  // Stores a mailed password beside the account's own; the account changes only when that password
  // is first used (POST /password-reset or /login, which log it: the scenario of /password-reset).
  'POST /password-forgot': 'stores a pending password, the account is unchanged',
  'POST /login': 'changes nothing but a first use of a mailed password, logged as in /password-reset',
};

const t = await createTestApp();
afterAll(() => t.close());
const op = await t.createUser({ role: 1, last_name: 'Логова', first_name: 'Ольга' });

interface Client {
  id: number;
  password: string;
  entryId: number;
}

interface Call {
  method: 'POST' | 'PUT' | 'DELETE';
  url?: string;
  payload?: unknown;
  headers?: Record<string, string>;
}

interface Scenario {
  /** What the client needs before the call (own session; not part of what is checked). */
  prepare?: (c: Client) => Promise<Record<string, unknown>>;
  /** The request (url defaults to the route's with :id = the client). */
  call: (c: Client, prepared: Record<string, unknown>) => Promise<Call> | Call;
  /** Whose record the row is about, when not the client's (a user created by the call). */
  entity?: (res: LightMyRequestResponse) => number | Promise<number>;
  /** Fields the new rows' diff must name. */
  fields: string[];
}

const upload = async (field: string, filename: string, content: Buffer, type: string) => {
  const body = multipart([{ field, filename, content, type }]);
  return { headers: body.headers, payload: body.payload };
};

async function uploadDocument(c: Client): Promise<number> {
  const body = multipart([{ field: 'other', filename: 'diploma.pdf', content: PDF, type: 'application/pdf' }]);
  const res = await t.inject({
    method: 'POST',
    url: `/api/user/${c.id}/upload-documents`,
    headers: { ...(await t.loginAs(c)), ...body.headers },
    payload: body.payload,
  });
  expect(res.statusCode, res.body).toBe(200);
  return Number(String(res.json().data.other[0].url).split('/').pop());
}

async function contractIdOf(entryId: number): Promise<number> {
  const res = await t.inject({ method: 'GET', url: `/api/contract?entry_id=${entryId}`, headers: await t.loginAs(op) });
  return res.json().data[0].id as number;
}

async function uploadScan(c: Client): Promise<void> {
  const body = multipart([{ field: 'file', filename: 'contract.pdf', content: PDF, type: 'application/pdf' }]);
  const res = await t.inject({
    method: 'POST',
    url: `/api/contract/upload?entry_id=${c.entryId}`,
    headers: { ...(await t.loginAs(c)), ...body.headers },
    payload: body.payload,
  });
  expect(res.statusCode, res.body).toBe(200);
}

const managerBody = (over: Record<string, unknown> = {}) => ({
  last_name: 'Новикова',
  first_name: 'Анна',
  middle_name: 'Сергеевна',
  email: `pd-${Math.random().toString(36).slice(2)}@example.com`,
  phone: `+7 (955) ${String(Math.floor(Math.random() * 1000)).padStart(3, '0')}-${String(Math.floor(Math.random() * 100)).padStart(2, '0')}-${String(Math.floor(Math.random() * 100)).padStart(2, '0')}`,
  organization: 'Гимназия № 2',
  job_title: 'Методист',
  profiles: [1],
  ...over,
});

const userIdByEmail = async (email: string) =>
  (await rows<{ id: number }>(t.database.db, sql`select id from users where lower(email) = ${email.toLowerCase()}`))[0].id;

const MAILED_PASSWORD = 'mailed-pass-1';

const SCENARIOS: Record<string, Scenario> = {
  // Anonymous forms: the row names the person as the one who acted.
  'POST /register': {
    call: () => {
      const b = managerBody({ email: 'pd-register@example.com', password: 'reg-secret-1', password_confirmation: 'reg-secret-1' });
      return { method: 'POST', payload: { data: { type: 'token', attributes: b } } };
    },
    entity: () => userIdByEmail('pd-register@example.com'),
    fields: ['email', 'phone', 'last_name', 'organization', 'job_title'],
  },
  'POST /password-reset': {
    prepare: async (c) => {
      await t.database.db.execute(
        sql`insert into password_resets (user_id, email, password_hash, expires_at) select id, email, ${await hashPassword(MAILED_PASSWORD)}, now() + interval '1 day' from users where id = ${c.id}`,
      );
      return {};
    },
    call: async (c) => {
      const [{ email }] = await rows<{ email: string }>(t.database.db, sql`select email from users where id = ${c.id}`);
      return { method: 'POST', payload: { data: { attributes: { email, password: MAILED_PASSWORD } } } };
    },
    fields: ['password'],
  },
  'PUT /api/user/:id': { call: () => ({ method: 'PUT', payload: { organization: 'Лицей № 239', job_title: 'Завуч' } }), fields: ['organization', 'job_title'] },
  'POST /api/user/store-profiles/:id': { call: () => ({ method: 'POST', payload: { profiles: [2] } }), fields: ['profiles'] },
  'POST /api/user/:id/change-password': {
    call: (c) => ({ method: 'POST', payload: { current_password: c.password, password: 'new-secret-1', password_confirmation: 'new-secret-1' } }),
    fields: ['password'],
  },
  'POST /api/user/:id/upload-avatar': {
    call: async () => ({ method: 'POST', ...(await upload('file', 'me.png', await png(), 'image/png')) }),
    fields: ['avatar_id'],
  },
  'POST /api/user/:id/upload-documents': {
    call: async () => ({ method: 'POST', ...(await upload('snils', 'snils.pdf', PDF, 'application/pdf')) }),
    fields: ['documents.snils'],
  },
  'DELETE /api/file/:id': {
    prepare: async (c) => ({ file: await uploadDocument(c) }),
    call: (_c, p) => ({ method: 'DELETE', url: `/api/file/${String(p.file)}` }),
    fields: ['documents.other'],
  },
  'POST /api/identity-document': {
    call: () => ({ method: 'POST', payload: { number: '4010 123456', date: '2015-06-01', issued_by: 'ТП № 1 УФМС России' } }),
    fields: ['passport_number', 'passport_date', 'passport_issued_by'],
  },
  'POST /api/user/:id/profile-extras': {
    call: () => ({ method: 'POST', payload: { address: 'г. Санкт-Петербург, Невский пр., д. 2', birthday: '1985-04-12', snils: VALID_SNILS } }),
    fields: ['address', 'birthday', 'snils'],
  },
  'POST /api/user/:id/contract-step': {
    prepare: async (c) => ({ headers: await fillContractData(t, c) }),
    call: () => ({ method: 'POST', payload: { contract_step: 2 } }),
    fields: ['contract_step'],
  },
  'POST /api/contract/upload': {
    prepare: async (c) => ({ headers: await fillContractData(t, c) }),
    call: async (c) => ({
      method: 'POST',
      url: `/api/contract/upload?entry_id=${c.entryId}`,
      ...(await upload('file', 'contract.pdf', PDF, 'application/pdf')),
    }),
    fields: ['contract_scan'],
  },
  'PUT /api/mail/subscription': { call: () => ({ method: 'PUT', payload: { subscribed: false } }), fields: ['mail_subscribed'] },
  // Operator-only routes.
  'POST /api/manager/users': {
    call: () => ({ method: 'POST', payload: managerBody() }),
    entity: (res) => res.json().data.id as number,
    fields: ['email', 'organization'],
  },
  'PUT /api/manager/users/:id': { call: (c) => ({ method: 'PUT', payload: managerBody({ email: `pd-${c.id}@example.com` }) }), fields: ['organization'] },
  'DELETE /api/manager/users/:id': { call: () => ({ method: 'DELETE' }), fields: ['deleted_at'] },
  'POST /api/manager/users/:id/restore': {
    prepare: async (c) => {
      await t.database.db.execute(sql`update users set deleted_at = now() where id = ${c.id}`);
      return {};
    },
    call: () => ({ method: 'POST' }),
    fields: ['deleted_at'],
  },
  // Issue 33: an archive prepared on the client's written request is an event naming the operator;
  // the erasure changes every personal field and records its reason.
  'POST /api/manager/users/:id/personal-data/export': { call: () => ({ method: 'POST' }), fields: ['personal_data_export'] },
  'POST /api/manager/users/:id/erase': {
    call: () => ({ method: 'POST', payload: { reason: 'Заявление клиента № 1' } }),
    fields: ['last_name', 'email', 'erased_at', 'personal_data_erased'],
  },
  'PUT /api/user/:id/name-forms': { call: () => ({ method: 'PUT', payload: { fio_dative: 'Клиентовой Вере' } }), fields: ['fio_dative'] },
  'POST /api/contract/:id/accept': {
    prepare: async (c) => {
      await fillContractData(t, c);
      await uploadScan(c);
      return { contract: await contractIdOf(c.entryId) };
    },
    call: (_c, p) => ({ method: 'POST', url: `/api/contract/${String(p.contract)}/accept` }),
    fields: ['contract_status'],
  },
  'POST /api/contract/:id/reject': {
    prepare: async (c) => {
      await fillContractData(t, c);
      await uploadScan(c);
      return { contract: await contractIdOf(c.entryId) };
    },
    call: (_c, p) => ({ method: 'POST', url: `/api/contract/${String(p.contract)}/reject`, payload: { comment: 'Нет подписи' } }),
    fields: ['contract_status', 'contract_comment'],
  },
};

let n = 0;
async function newClient(): Promise<Client> {
  n++;
  const password = `client-pass-${n}`;
  const u = await t.createUser({ last_name: 'Клиентова', first_name: `Вера${n}`, password, profiles: [1] });
  const { entryId } = await courseEntry(t, u.id);
  return { id: u.id, password, entryId };
}

/** An operator's fresh "login as" session of the client (the operator's own session becomes it). */
async function loginAsSession(clientId: number): Promise<Record<string, string>> {
  const res = await t.inject({ method: 'POST', url: `/api/manager/users/${clientId}/login-as`, headers: await t.loginAs(op) });
  expect(res.statusCode, res.body).toBe(200);
  return { authorization: `Bearer ${res.json().access_token}` };
}

const lastLogId = async () => (await rows<{ id: number | null }>(t.database.db, sql`select max(id) as id from change_logs`))[0].id ?? 0;

interface LogRow {
  user_id: number | null;
  impersonator_id: number | null;
  diff: Record<string, { old: unknown; new: unknown }>;
}
const newRows = (entity: number, after: number) =>
  rows<LogRow>(
    t.database.db,
    sql`select user_id, impersonator_id, diff from change_logs where type = 'user' and entity_id = ${entity} and id > ${after} and not diff ? 'login_as' order by id`,
  );

const routes = apiRoutes(t.app).filter((r) => r.method !== 'GET' && PERSONAL_DATA_PATHS.some((p) => p.test(r.url.split('?')[0])));

describe('every route that changes personal data writes a change-log row naming who acted', () => {
  it('every such route of the route table has a scenario here or a reason in ALLOWED', () => {
    const unknown = routes.map(routeKey).filter((k) => !(k in SCENARIOS) && !(k in ALLOWED));
    expect(unknown, 'new routes that change personal data: log the change and add a scenario, or allow-list them with a reason').toEqual([]);
    // A scenario for a route that no longer exists is a stale list.
    const known = new Set(routes.map(routeKey));
    expect(Object.keys(SCENARIOS).filter((k) => !known.has(k))).toEqual([]);
  });

  const modes = (access: unknown) =>
    access === 'operator' ? (['operator'] as const) : access === 'public' ? (['anonymous'] as const) : (['client', 'login-as'] as const);

  for (const route of routes.filter((r) => routeKey(r) in SCENARIOS)) {
    const key = routeKey(route);
    const scenario = SCENARIOS[key];
    for (const mode of modes(route.access)) {
      it(`${key} as ${mode}`, async () => {
        const c = await newClient();
        const prepared = scenario.prepare ? await scenario.prepare(c) : {};
        const headers =
          mode === 'anonymous' ? {} : mode === 'client' ? await t.loginAs(c) : mode === 'login-as' ? await loginAsSession(c.id) : await t.loginAs(op);
        const mark = await lastLogId();
        const call = await scenario.call(c, prepared);
        const res = await t.inject({
          method: call.method,
          url: call.url ?? fillPath(route.url, { id: String(c.id) }),
          headers: { ...headers, ...(call.headers ?? {}) },
          ...(call.payload !== undefined ? { payload: call.payload as string } : {}),
        });
        expect(res.statusCode, res.body).toBeLessThan(300);
        const entity = scenario.entity ? await scenario.entity(res) : c.id;
        const logged = await newRows(entity, mark);
        expect(logged.length, `${key} wrote no change-log row`).toBeGreaterThan(0);
        const expected =
          mode === 'anonymous'
            ? { user_id: entity, impersonator_id: null }
            : mode === 'client'
              ? { user_id: c.id, impersonator_id: null }
              : mode === 'login-as'
                ? { user_id: c.id, impersonator_id: op.id }
                : { user_id: op.id, impersonator_id: null };
        for (const row of logged) expect({ user_id: row.user_id, impersonator_id: row.impersonator_id }).toEqual(expected);
        const fields = new Set(logged.flatMap((r) => Object.keys(r.diff)));
        for (const f of scenario.fields) expect([...fields], `${key} logs ${f}`).toContain(f);
        // Identity numbers never reach the log whole.
        const text = JSON.stringify(logged);
        expect(text).not.toContain('123456');
        expect(text).not.toContain('112-233-445');
      });
    }
  }
});

describe('what the rows hold', () => {
  it('masks passport and SNILS numbers and names files by id, old and new', async () => {
    const c = await newClient();
    const h = await t.loginAs(c);
    const mark = await lastLogId();
    await t.inject({
      method: 'POST',
      url: `/api/user/${c.id}/profile-extras`,
      headers: h,
      payload: { address: 'Адрес 1', birthday: '1985-04-12', snils: VALID_SNILS },
    });
    await t.inject({ method: 'POST', url: '/api/identity-document', headers: h, payload: { number: '4010 123456', date: '2015-06-01', issued_by: 'ТП № 1' } });
    const file = await uploadDocument(c);
    const logged = await newRows(c.id, mark);
    const diffs = Object.assign({}, ...logged.map((r) => r.diff)) as LogRow['diff'];
    expect(diffs.snils).toEqual({ old: null, new: '•••-•••-••5 95' });
    expect(diffs.passport_number).toEqual({ old: null, new: '•••• •••456' });
    expect(diffs.passport_date).toEqual({ old: null, new: '2015-06-01' });
    expect(diffs['documents.other']).toEqual({ old: null, new: [file] });

    // An operator's later correction of the passport: old and new, both masked.
    const mark2 = await lastLogId();
    const fix = await t.inject({
      method: 'POST',
      url: '/api/identity-document',
      headers: await t.loginAs(op),
      payload: { user_id: c.id, number: '4010 654321', date: '2015-06-01', issued_by: 'ТП № 1' },
    });
    expect(fix.statusCode, fix.body).toBe(201);
    const [row] = await newRows(c.id, mark2);
    expect(row).toMatchObject({ user_id: op.id, diff: { passport_number: { old: '•••• •••456', new: '•••• •••321' } } });
    expect(Object.keys(row.diff)).toEqual(['passport_number']);
  });

  it("unsubscribing by a letter's link is logged as the person's own act", async () => {
    const c = await newClient();
    await t.inject({ method: 'PUT', url: '/api/mail/subscription', headers: await t.loginAs(c), payload: { subscribed: true } });
    const [{ token }] = await rows<{ token: string }>(t.database.db, sql`select token::text as token from mail_subscriptions where user_id = ${c.id}`);
    const mark = await lastLogId();
    const res = await t.inject({ method: 'POST', url: `/api/mail/unsubscribe/${token}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(await newRows(c.id, mark)).toEqual([{ user_id: c.id, impersonator_id: null, diff: { mail_subscribed: { old: true, new: false } } }]);
  });

  it('the log screen reads the new fields in Russian', async () => {
    const c = await newClient();
    await fillContractData(t, c);
    const res = await t.inject({ method: 'GET', url: `/api/log?type=user&entity_id=${c.id}`, headers: await t.loginAs(op) });
    expect(res.statusCode, res.body).toBe(200);
    const changes = (res.json().data as Array<{ changes: Array<{ label: string; old: string; new: string }> }>).flatMap((r) => r.changes);
    const byLabel = Object.fromEntries(changes.map((ch) => [ch.label, ch.new]));
    expect(byLabel).toMatchObject({
      СНИЛС: '•••-•••-••5 95',
      'Паспорт: серия и номер': '•••• •••456',
      'Паспорт: дата выдачи': '01.06.2015',
      'Документы: Паспорт': 'passport.pdf',
      'Документы: Согласие на обработку персональных данных': 'consent.pdf',
    });
  });
});
