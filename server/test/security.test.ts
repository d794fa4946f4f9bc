import { afterAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { cardTransactions, notifications, publicationPrices } from '../src/db/schema/index.ts';
import { rows } from '../src/platform/db.ts';
import { createTestApp } from './helper.ts';
import { makeService } from './fixtures.ts';
import { courseEntry, multipart, PDF } from './documents-fixtures.ts';
import { apiRoutes, fillPath, routeKey } from './route-walk.ts';

// Walks the app's own route table (every route registered, seen by an onRoute hook) and checks each
// route as anonymous, as a user, as another user and as an operator. A route missing from POLICY
// fails the suite: whoever adds a route decides here who may call it. Routes registered inside the
// manager area's operator scope (platform/manager-scope.ts) are declared 'operator' by that scope.
//
//   public    anyone (login, registration, the public /pay form, the provider's webhook)
//   shop      the sandbox's provider API: the shop's Basic credentials, nobody's session
//   user      any signed-in user; answers only carry the asker's own data
//   session   a signed-in user whose session state decides (403 allowed), never anonymous
//   owner     a signed-in user on their own record (the :id); another user gets 404; operators any
//             (selfOnly: operators too get 404 on someone else's)
//   operator  operators only

type Access = 'public' | 'shop' | 'user' | 'session' | 'owner' | 'operator';

/** Who may call what. Owner routes name the resource their :id is. */
type Owned = 'user' | 'entry' | 'notification' | 'card_transaction' | 'file' | 'publication';

/** owner: what the :id is; body: what is sent; owned: the owner's own GET answer when not 200. */
const POLICY: Record<string, Access | { owner: Owned; body?: Record<string, unknown>; selfOnly?: true; owned?: number }> = {
  'GET /api/v1/sanctum/csrf-cookie': 'public',
  'POST /login': 'public',
  'POST /register': 'public',
  'POST /logout': 'user',
  'POST /api/old-user': 'public',
  'POST /password-forgot': 'public',
  'POST /password-reset': 'public',
  'GET /api/get': 'user',
  'GET /api/public-config': 'public',
  'PUT /api/user/:id': { owner: 'user', body: { email: 'hijacked@example.com', phone: '+7 (900) 123-45-67', organization: 'x', job_title: 'x' } },
  'POST /api/user/store-profiles/:id': { owner: 'user', body: { profiles: [1] } },
  'POST /api/user/:id/change-password': { owner: 'user', body: { current_password: 'x', password: 'hijack1', password_confirmation: 'hijack1' } },
  'POST /api/user/:id/upload-avatar': { owner: 'user' },
  'GET /api/avatar/:a/:b': 'public',
  'GET /api/service-image/:a/:b': 'public',
  // Back from "login as": a user's session; 403 unless it was opened by an operator.
  'POST /api/login-as/leave': 'session',
  'GET /api/leading': 'user',
  'GET /api/publication-release': 'user',
  'GET /api/publication-price': 'user',
  'GET /api/dictionaries/:name': 'user',
  'GET /api/service': 'user',
  'GET /api/service/facets': 'user',
  'GET /api/service/:id': 'user',
  'POST /api/service/search': 'user',
  'GET /api/entry': 'user',
  'GET /api/entry/:id': { owner: 'entry' },
  'POST /api/entry': 'user',
  'PUT /api/entry/:id': { owner: 'entry', body: { pay_type: 1 } },
  'DELETE /api/entry/:id': { owner: 'entry' },
  'POST /api/entry-thesis': 'user',
  'GET /api/notification': 'user',
  'POST /api/notification/index': 'user',
  'GET /api/notification/new': 'user',
  // Notifications are their addressee's alone, operators included.
  'POST /api/notification/:id/read': { owner: 'notification', selfOnly: true },
  'POST /api/notification/read-all': 'user',
  'GET /api/service-package': 'user',
  'GET /api/service-package/:id': 'user',
  'POST /api/service-package/:id/enroll': 'user',
  'POST /api/review': 'user',
  'POST /api/entry/:id/pay': { owner: 'entry', body: { pay_type: 1 } },
  'POST /api/entry/:id/set-payment-uuid': { owner: 'entry', body: { uuid: 'someone-elses' } },
  'POST /api/yookassa/webhook': 'public',
  'POST /api/yookassa/:id/refresh': { owner: 'card_transaction' },
  'POST /api/yookassa-entry/pay': 'public',
  'GET /api/payment': 'user',
  'GET /api/payment/statistics': 'operator',
  'GET /api/yookassa': 'operator',
  // Operator-scope routes at their prefix's root: the scope's table row is the trailing-slash twin.
  'POST /api/service': 'operator',
  'POST /api/service-package': 'operator',
  'POST /sandbox/yookassa/v3/payments': 'shop',
  'GET /sandbox/yookassa/v3/payments': 'shop',
  'GET /sandbox/yookassa/v3/payments/:id': 'shop',
  'POST /sandbox/yookassa/v3/payments/:id/capture': 'shop',
  'POST /sandbox/yookassa/v3/payments/:id/cancel': 'shop',
  'POST /sandbox/yookassa/v3/refunds': 'shop',
  'GET /sandbox/yookassa/v3/refunds/:id': 'shop',
  'GET /sandbox/yookassa/pay/:id': 'public',
  'POST /sandbox/yookassa/pay/:id': 'public',
  // The /pay result of the public form, the unsubscribe link of a letter and short-lived file links: no session by design.
  'POST /api/yookassa-entry/:id/refresh': 'public',
  'POST /api/mail/unsubscribe/:token': 'public',
  'GET /api/file/link/:token': 'public',
  'GET /api/file/signed': 'public',
  // One's own mail settings, documents, contract data and prints (the :id routes answer 404 to another user).
  'GET /api/mail/subscription': 'user',
  'PUT /api/mail/subscription': 'user',
  'GET /api/user/:id/documents': { owner: 'user' },
  'POST /api/user/:id/upload-documents': { owner: 'user' },
  'GET /api/file/:id': { owner: 'file' },
  'GET /api/file/:id/link': { owner: 'file' },
  'GET /api/file/:id/download': { owner: 'file' },
  'DELETE /api/file/:id': { owner: 'file' },
  'GET /api/identity-document': 'user',
  'POST /api/identity-document': 'user',
  'GET /api/user/:id/profile-extras': { owner: 'user' },
  'POST /api/user/:id/profile-extras': { owner: 'user', body: { address: 'Захвачено', birthday: '1985-04-12', snils: '112-233-445 95' } },
  'GET /api/user/:id/contract-data': { owner: 'user' },
  'POST /api/user/:id/contract-step': { owner: 'user', body: { contract_step: 2 } },
  'GET /api/contract': 'user',
  'POST /api/contract/upload': 'user',
  // Printing the walk's unpaid entry is refused with a reason (422), to its owner too.
  'GET /api/entry/:id/print/:kind': { owner: 'entry', owned: 422 },
  'GET /api/user/:id/consent/print': { owner: 'user', owned: 422 },
  'GET /api/template': 'operator',
  'POST /api/template': 'operator',
  // Publications: users reach what they created or co-author (404 otherwise, features/publications tests).
  'GET /api/publication': 'user',
  'POST /api/publication': 'user',
  'GET /api/publication/authors': 'user',
  'GET /api/publication/invitations': 'user',
  // Only the invited account answers; anyone else, operators too, finds no invitation (404).
  'POST /api/publication/:id/accept-invitation': { owner: 'publication', selfOnly: true },
  'POST /api/publication/:id/decline-invitation': { owner: 'publication', selfOnly: true },
  'GET /api/publication/:id': { owner: 'publication' },
  'PUT /api/publication/:id': { owner: 'publication', body: { title: 'Захвачено' } },
  'POST /api/publication/:id': { owner: 'publication', body: { title: 'Захвачено' } },
  'DELETE /api/publication/:id': { owner: 'publication' },
  'GET /api/publication/:id/file/:fileId': 'user',
  'GET /api/health': 'public',
  'GET /api/docs': 'public',
};

const t = await createTestApp();
afterAll(() => t.close());
const routes = apiRoutes(t.app);
const inOperatorScope = new Set(
  t.app
    .routeTable()
    .filter((r) => r.operatorScope)
    .map(routeKey),
);
const policyOf = (key: string) => POLICY[key] ?? (inOperatorScope.has(key) ? ('operator' as const) : undefined);
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

const call = (route: { method: string; url: string }, headers: Record<string, string>, id: number | string = NO_SUCH_ID, body?: Record<string, unknown>) =>
  t.inject({
    method: route.method as 'GET',
    url: fillPath(route.url, { id: String(id), name: 'dict_profiles', kind: 'certificate', a: 'ab', b: `${'0'.repeat(32)}.jpg` }),
    headers,
    ...(route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: body ?? {} }),
  });

describe('security: the route table', () => {
  it('is walked in full and every route has a declared access policy', () => {
    expect(routes.length).toBeGreaterThan(30);
    const undeclared = routes.map(routeKey).filter((k) => policyOf(k) === undefined);
    expect(undeclared, `declare these routes in POLICY of server/test/security.test.ts`).toEqual([]);
  });

  it('every declared route exists (the table is not stale)', () => {
    const present = new Set(routes.map(routeKey));
    expect(Object.keys(POLICY).filter((k) => !present.has(k))).toEqual([]);
  });

  it.each(routes.map((r) => [routeKey(r), r] as const))('%s', async (key, route) => {
    const policy = policyOf(key);
    if (policy === undefined) return; // reported by the first test
    const access: Access = typeof policy === 'string' ? policy : 'owner';
    const body = typeof policy === 'object' ? policy.body : undefined;
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
        expect((await call(route, await t.loginAs(alice), alice.ids[policy.owner])).statusCode, `${key} as the owner`).toBe(policy.owned ?? 200);
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
