import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { cardTransactions, notifications, publicationPrices } from '../src/db/schema/index.ts';
import { rows } from '../src/platform/db.ts';
import { createTestApp } from './helper.ts';
import { makeService } from './fixtures.ts';
import { courseEntry, multipart, PDF } from './documents-fixtures.ts';
import { apiRoutes, fillPath, routeKey } from './route-walk.ts';
import { Contract } from './contract.ts';

// Walks the app's own route table (every route registered, seen by an onRoute hook) and checks each
// route as anonymous, as a user, as another user and as an operator, against the access the route
// itself declares (platform/access.ts): nothing is written here a second time.
//
//   public    anyone (login, registration, the public /pay form, the provider's webhook)
//   shop      the sandbox's provider API: the shop's Basic credentials, nobody's session
//   user      any signed-in user; answers only carry the asker's own data
//   session   a signed-in user whose session state decides (403 allowed), never anonymous
//   owner     a signed-in user on their own record (the :id); another user gets 404; operators any
//             (selfOnly: operators too get 404 on someone else's)
//   operator  operators only

/**
 * What the walk sends to an owner route to try to change someone else's record, and the owner's own
 * GET answer where it is not 200. Test data only: who may call a route is the route's declaration.
 */
const PROBES: Record<string, { body?: Record<string, unknown>; owned?: number }> = {
  'PUT /api/user/:id': { body: { email: 'hijacked@example.com', phone: '+7 (900) 123-45-67', organization: 'x', job_title: 'x' } },
  'POST /api/user/store-profiles/:id': { body: { profiles: [1] } },
  'POST /api/user/:id/change-password': { body: { current_password: 'x', password: 'hijack1', password_confirmation: 'hijack1' } },
  'PUT /api/entry/:id': { body: { pay_type: 1 } },
  'POST /api/entry/:id/pay': { body: { pay_type: 1 } },
  'POST /api/entry/:id/set-payment-uuid': { body: { uuid: 'someone-elses' } },
  'POST /api/user/:id/profile-extras': { body: { address: 'Захвачено', birthday: '1985-04-12', snils: '112-233-445 95' } },
  'POST /api/user/:id/contract-step': { body: { contract_step: 2 } },
  // Printing the walk's unpaid entry is refused with a reason (422), to its owner too.
  'GET /api/entry/:id/print/:kind': { owned: 422 },
  'GET /api/user/:id/consent/print': { owned: 422 },
  'PUT /api/publication/:id': { body: { title: 'Захвачено' } },
  'POST /api/publication/:id': { body: { title: 'Захвачено' } },
};

const t = await createTestApp();
afterAll(() => t.close());
const routes = apiRoutes(t.app);
/** An id nothing has: generic calls must not touch the records the checks below look at. */
const NO_SUCH_ID = 2_147_483_000;

// A publication needs a publication service with a price.
const publicationServiceId = (
  await makeService(t.database.db, { title: 'Интернет-публикация', dict_type_id: 5, dict_subtype_id: 5, is_publication: true, price: 0, date_type: 2 })
).id;
await t.database.db.insert(publicationPrices).values({ dict_service_subtype_id: 5, authors_num: 1, price: 1000 });

/** A person with an entry, a notification, a card transaction, a document and a publication: the records owner routes point at. */
async function personWithRecords(marker: string) {
  const u = await t.createUser({ email: `${marker}@example.com`, password: `${marker}-pass` });
  const headers = await t.loginAs(u);
  await courseEntry(t, u.id);
  const form = multipart([{ field: 'other', filename: 'secret.pdf', content: PDF, type: 'application/pdf' }]);
  const uploaded = await t.inject({
    method: 'POST',
    url: `/api/user/${u.id}/upload-documents`,
    headers: { ...headers, ...form.headers },
    payload: form.payload,
  });
  expect(uploaded.statusCode, uploaded.body).toBe(200);
  const file = String(uploaded.json().data.other[0].url).split('/').pop()!;
  const text = `<p>${Array.from({ length: 400 }, (_, i) => `Проектная${i} деятельность${i}`).join(' ')}</p>`;
  const published = await t.inject({
    method: 'POST',
    url: '/api/publication',
    headers,
    payload: { service_id: publicationServiceId, title: `Статья ${marker}`, text, dict_category_id: 2, type: 1, authors_num: 1 },
  });
  expect(published.statusCode, published.body).toBe(200);
  const service = await makeService(t.database.db, { price: 900 });
  const created = await t.inject({ method: 'POST', url: '/api/entry', headers, payload: { service_id: service.id, pay_type: 3 } });
  const entry = created.json().data as { id: number; number: string };
  const [note] = await t.database.db
    .insert(notifications)
    .values({ user_id: u.id, text: `секрет ${marker}`, text_clear: `секрет ${marker}` })
    .returning({ id: notifications.id });
  const [ct] = await t.database.db
    .insert(cardTransactions)
    .values({ provider: 'sandbox', idempotence_key: `${marker}-key`, status: 'pending', sum: 900, user_id: u.id, created_by: u.id, entry_ids: [entry.id] })
    .returning({ id: cardTransactions.id });
  const ids = { user: u.id, entry: entry.id, notification: note.id, card_transaction: ct.id, file, publication: published.json().data.id as number };
  return { ...u, headers, ids, entryNumber: entry.number };
}

const alice = await personWithRecords(`alice-${Date.now()}`);
const mallory = await personWithRecords(`mallory-${Date.now()}`);
const operatorUser = await t.createUser({ role: 1 });

/** Every answer of the walk is held to the served API document (test/contract.ts). */
const contract = new Contract((await t.inject({ method: 'GET', url: '/api/docs' })).json());

const call = async (
  route: { method: string; url: string; schema?: { hide?: boolean } },
  headers: Record<string, string>,
  id: number | string = NO_SUCH_ID,
  body?: Record<string, unknown>,
) => {
  const res = await t.inject({
    method: route.method as 'GET',
    url: fillPath(route.url, { id: String(id), name: 'dict_profiles', kind: 'certificate', a: 'ab', b: `${'0'.repeat(32)}.jpg` }),
    headers,
    ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: body ?? {} }),
  });
  if (!route.schema?.hide) contract.check(route, res);
  return res;
};

describe('security: the route table', () => {
  it('is walked in full, every route declaring its access', () => {
    expect(routes.length).toBeGreaterThan(150);
    expect(routes.filter((r) => r.access === undefined).map(routeKey)).toEqual([]);
    // Owner routes and the manager area at least; the kinds come from the routes themselves.
    const kinds = new Set(routes.map((r) => (typeof r.access === 'object' ? 'owner' : r.access)));
    expect([...kinds].sort()).toEqual(['operator', 'owner', 'public', 'session', 'shop', 'user']);
  });

  it('every probe names an owner route (the probes are not stale)', () => {
    const owners = new Set(routes.filter((r) => typeof r.access === 'object').map(routeKey));
    expect(Object.keys(PROBES).filter((k) => !owners.has(k))).toEqual([]);
  });

  it.each(routes.map((r) => [routeKey(r), r] as const))('%s', async (key, route) => {
    const policy = route.access!;
    const access = typeof policy === 'string' ? policy : 'owner';
    const probe = PROBES[key] ?? {};
    const body = probe.body;
    // Fresh sessions per route: a logout walked earlier must not hide what comes after.
    const malloryHeaders = await t.loginAs(mallory);
    const operatorHeaders = await t.loginAs(operatorUser);

    // Anonymous.
    const anon = await call(route, {}, typeof policy === 'object' ? alice.ids[policy.owner] : NO_SUCH_ID, body);
    expect(anon.statusCode, `${key} as anonymous`).toBeLessThan(500);
    if (access !== 'public') expect(anon.statusCode, `${key} as anonymous`).toBe(401);
    else expect(anon.statusCode, `${key} as anonymous`).not.toBe(401);

    // A user.
    if (access === 'operator') {
      const asUser = await call(route, malloryHeaders, NO_SUCH_ID);
      expect(asUser.statusCode, `${key} as a user`).toBe(403);
    }
    if (access === 'user') {
      const asUser = await call(route, malloryHeaders, NO_SUCH_ID, body);
      expect([401, 403], `${key} as a user`).not.toContain(asUser.statusCode);
      expect(asUser.statusCode, `${key} as a user`).toBeLessThan(500);
      // Another user's records never show up in a user's answers.
      expect(asUser.body, `${key} as a user shows Alice`).not.toContain(alice.email);
      expect(asUser.body, `${key} as a user shows Alice's entry`).not.toContain(alice.entryNumber);
    }

    if (access === 'session') {
      const asUser = await call(route, malloryHeaders, NO_SUCH_ID, body);
      expect(asUser.statusCode, `${key} as a plain user session`).toBe(403);
    }

    // Another user on the owner's record.
    if (typeof policy === 'object') {
      const other = await call(route, malloryHeaders, alice.ids[policy.owner], body);
      expect([403, 404], `${key} as another user`).toContain(other.statusCode);
      expect(other.body).not.toContain(alice.email);
      // The owner reaches it.
      if (route.method === 'GET')
        expect((await call(route, await t.loginAs(alice), alice.ids[policy.owner])).statusCode, `${key} as the owner`).toBe(probe.owned ?? 200);
    }

    // An operator passes every guard (on a third person's records, so Alice's stay intact).
    if (access === 'operator' || access === 'owner' || access === 'user') {
      const victim = typeof policy === 'object' ? await personWithRecords(`carol-${routes.indexOf(route)}-${Date.now()}`) : null;
      const id = typeof policy === 'object' ? victim!.ids[policy.owner] : NO_SUCH_ID;
      const asOperator = await call(route, operatorHeaders, id, body);
      expect([401, 403], `${key} as an operator`).not.toContain(asOperator.statusCode);
      expect(asOperator.statusCode, `${key} as an operator`).toBeLessThan(500);
      if (typeof policy === 'object' && policy.selfOnly) expect(asOperator.statusCode, `${key} as an operator`).toBe(404);
      else if (typeof policy === 'object') expect(asOperator.statusCode, `${key} as an operator`).not.toBe(404);
    }
  });

  it('every answer of the walk is declared in the API document and matches it', () => {
    expect(contract.checked).toBeGreaterThan(500);
    expect(contract.mismatches).toEqual([]);
  });

  it('after the walk, Alice\u2019s records are as she left them', async () => {
    const [entry] = await rows<{ deleted_at: Date | null; status: number; pay_type: number }>(
      t.database.db,
      sql`select deleted_at, status, pay_type from entries where id = ${alice.ids.entry}`,
    );
    expect(entry).toEqual({ deleted_at: null, status: 1, pay_type: 3 });
    const [user] = await rows<{ email: string }>(t.database.db, sql`select email from users where id = ${alice.id}`);
    expect(user.email).toBe(alice.email);
    expect((await t.inject({ method: 'POST', url: '/login', payload: { email: alice.email, password: alice.password } })).statusCode).toBe(200);
    const [note] = await rows<{ checked: boolean }>(t.database.db, sql`select checked from notifications where id = ${alice.ids.notification}`);
    expect(note.checked).toBe(false);
    const h = await t.loginAs(alice);
    expect((await t.inject({ method: 'GET', url: `/api/file/${alice.ids.file}`, headers: h })).statusCode).toBe(200);
    const publication = await t.inject({ method: 'GET', url: `/api/publication/${alice.ids.publication}`, headers: h });
    expect(publication.statusCode).toBe(200);
    expect(publication.json().data.title).toBe(`Статья ${alice.email.split('@')[0]}`);
    const extras = await t.inject({ method: 'GET', url: `/api/user/${alice.id}/profile-extras`, headers: h });
    expect(extras.statusCode).toBe(200);
    expect(extras.json().data?.address ?? null).not.toBe('Захвачено');
  });
});
