// Where publications meet packages, debts, entries and contracts (issue 19, decision 025).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Entry } from '@edu/domain/entries/entry';
import { LogReasons } from '@edu/domain/logs/log';
import { PublicationMessages, type Publication } from '@edu/domain/publications/publication';
import { contracts, files, publicationPrices, servicePackages, servicePackageServices } from '../../db/schema/index.ts';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { makeService } from '../../../test/fixtures.ts';
import { rows } from '../../platform/db.ts';

let t: TestApp;
let operator: Record<string, string>;
let internetServiceId: number;
let packageId: number;
let courseId: number;

/** An HTML text of about `n` plain characters. */
function longText(n = 3300, seed = 'Проектная деятельность младших школьников'): string {
  const words: string[] = [];
  let i = 0;
  while (words.join(' ').length < n) words.push(`${seed.split(' ')[i % 4]}${i++}`);
  return `<p>${words.join(' ')}</p>`;
}

const article = (extra: Record<string, unknown> = {}) => ({
  title: 'Игровые технологии на уроках математики',
  text: longText(),
  dict_category_id: 2,
  type: 1,
  authors_num: 1,
  ...extra,
});

async function person(lastName: string) {
  const u = await t.createUser({ last_name: lastName, first_name: 'Анна', middle_name: 'Петровна' });
  return { ...u, h: await t.loginAs(u) };
}
type Person = Awaited<ReturnType<typeof person>>;

const create = (h: Record<string, string>, body: Record<string, unknown>) => t.inject({ method: 'POST', url: '/api/publication', headers: h, payload: body });
/**
 * An operator action. Approving or sending to the journal confirms an unpaid publication: payment is
 * not what these tests are about (the unpaid rule has its own tests, which call the route directly).
 */
const act = (id: number, action: string, payload: Record<string, unknown> = {}, h = operator) =>
  t.inject({
    method: 'POST',
    url: `/api/publication/${id}/${action}`,
    headers: h,
    payload: action === 'accept' || action === 'send-to-journal' ? { confirm_unpaid: true, ...payload } : payload,
  });
const me = async (u: Person) => (await t.inject({ method: 'GET', url: '/api/get', headers: u.h })).json();
const entry = async (h: Record<string, string>, id: number): Promise<Entry> =>
  (await t.inject({ method: 'GET', url: `/api/entry/${id}`, headers: h })).json().data;
const liveEntries = async (userId: number) =>
  rows<{ id: number; status: number; price: string }>(
    t.database.db,
    sql`select id, status, price from entries where created_by = ${userId} and deleted_at is null order by id`,
  );

async function enrol(u: Person) {
  const res = await t.inject({
    method: 'POST',
    url: `/api/service-package/${packageId}/enroll`,
    headers: u.h,
    payload: { services: { [courseId]: null, [internetServiceId]: null } },
  });
  expect(res.statusCode, res.body).toBe(201);
  const list = res.json().data.entries as Entry[];
  return { course: list.find((e) => e.service_id === courseId)!, publication: list.find((e) => e.service_id === internetServiceId)! };
}

beforeAll(async () => {
  t = await createTestApp();
  operator = await t.loginAs(await t.createUser({ role: 1, last_name: 'Операторова' }));
  const db = t.database.db;
  // The service's own price (350) is stale: the publication prices say 900 for one author.
  internetServiceId = (
    await makeService(db, { title: 'Интернет-публикация', dict_type_id: 5, dict_subtype_id: 5, is_publication: true, price: 350, date_type: 2 })
  ).id;
  courseId = (await makeService(db, { title: 'Вебинар «Урок»', price: 1100 })).id;
  await db.insert(publicationPrices).values([
    { dict_service_subtype_id: 5, authors_num: 1, price: 900 },
    { dict_service_subtype_id: 5, authors_num: 2, price: 1300 },
  ]);
  const [p] = await db.insert(servicePackages).values({ title: 'Пакет «Педагог-автор»', price: 1600 }).returning();
  packageId = p.id;
  await db.insert(servicePackageServices).values([
    { service_package_id: p.id, service_id: courseId, position: 0 },
    { service_package_id: p.id, service_id: internetServiceId, position: 1 },
  ]);
});
afterAll(async () => {
  await t.close();
});

describe('a package with a publication', () => {
  it('prices its publication by the publication prices (one author), in the window and in the shares', async () => {
    const u = await person('Пакетова');
    const pkg = (await t.inject({ method: 'GET', url: `/api/service-package/${packageId}`, headers: u.h })).json().data;
    expect(pkg.services.find((s: { id: number }) => s.id === internetServiceId).price).toBe(900);
    const { course, publication } = await enrol(u);
    // 1 600 ₽ split over 1 100 and 900 (not 350): 880 and 720.
    expect(course.price).toBe(880);
    expect(publication.price).toBe(720);
  });

  it('its paid entry gets its article without a second charge; a second article, another user or a co-author are refused in Russian', async () => {
    const u = await person('Авторова');
    const { course, publication } = await enrol(u);
    expect((await t.inject({ method: 'POST', url: `/api/entry/${course.id}/pay`, headers: operator, payload: { pay_type: 1 } })).statusCode).toBe(200);
    const paid = await entry(u.h, publication.id);
    expect(paid).toMatchObject({ status: 2, publication: null, can_add_publication: true });
    const before = await liveEntries(u.id);

    const coAuthored = await create(u.h, article({ entry_id: publication.id, authors_num: 2, authors: [{ fio: 'Соавторова Мария' }] }));
    expect(coAuthored.statusCode).toBe(422);
    expect(coAuthored.json().errors.authors_num).toEqual([PublicationMessages.packageOneAuthor]);
    const other = await person('Чужая');
    const foreign = await create(other.h, article({ entry_id: publication.id }));
    expect(foreign.statusCode).toBe(422);
    expect(foreign.json().errors.entry_id).toEqual([PublicationMessages.entryNotYours]);

    const res = await create(u.h, article({ entry_id: publication.id }));
    expect(res.statusCode, res.body).toBe(200);
    const p: Publication = res.json().data;
    expect(p.entries.map((e) => e.id)).toEqual([publication.id]);
    expect(p.entry).toMatchObject({ status: 2, is_paid: true, price: 720 });
    // No new entry, nothing owed, the entry still at its share.
    expect(await liveEntries(u.id)).toEqual(before);
    expect(await me(u)).toMatchObject({ left_sum: 0, entries_unpaid_num: 0 });
    const after = await entry(u.h, publication.id);
    expect(after).toMatchObject({ can_add_publication: false, publication: { id: p.id, title: p.title, status: 1, statusLabel: 'Ожидает проверки' } });

    const again = await create(u.h, article({ entry_id: publication.id, title: 'Вторая статья' }));
    expect(again.statusCode).toBe(422);
    expect(again.json().errors.entry_id).toEqual([PublicationMessages.entryHasPublication]);
    expect(again.json().message).toBe(PublicationMessages.entryHasPublication);
    // The author cannot raise the number of authors later either.
    const edit = await t.inject({ method: 'PUT', url: `/api/publication/${p.id}`, headers: u.h, payload: article({ authors_num: 2 }) });
    expect(edit.statusCode).toBe(422);
    expect(edit.json().errors.authors_num).toEqual([PublicationMessages.packageOneAuthor]);
    // Approved, the paid entry's certificate is allowed by the print rules (a template permitting).
    expect((await act(p.id, 'accept')).statusCode).toBe(200);
    expect((await entry(u.h, publication.id)).publication?.status).toBe(2);
  });

  it('a broken package returns its unpaid publication entry to the publication price, not the stale service price', async () => {
    const u = await person('Разделова');
    const { course, publication } = await enrol(u);
    expect((await t.inject({ method: 'DELETE', url: `/api/entry/${course.id}`, headers: operator })).statusCode).toBe(200);
    expect((await entry(operator, publication.id)).price).toBe(900);
  });
});

describe('«Добавить публикацию» uses the paid slot first (issue 28)', () => {
  const slots = async (h: Record<string, string>, q = '') => (await t.inject({ method: 'GET', url: `/api/publication/slots${q}`, headers: h })).json().data;
  async function paidPackage(u: Person) {
    const { course, publication } = await enrol(u);
    expect((await t.inject({ method: 'POST', url: `/api/entry/${course.id}/pay`, headers: operator, payload: { pay_type: 1 } })).statusCode).toBe(200);
    return publication;
  }

  it('a client with a paid package names the service only: the article goes to the package entry, no new entry is made, and the answer says so', async () => {
    const u = await person('Слотова');
    const slotEntry = await paidPackage(u);
    const [slot] = await slots(u.h);
    expect(slot).toEqual({
      entry_id: slotEntry.id,
      number: slotEntry.number,
      service: { id: internetServiceId, title: 'Интернет-публикация', dict_subtype_id: 5 },
      package_title: 'Пакет «Педагог-автор»',
      is_paid: true,
      authors_covered: 1,
    });
    // An operator sees the client's slots; another client does not.
    expect((await slots(operator, `?user_id=${u.id}`)).map((x: { entry_id: number }) => x.entry_id)).toEqual([slotEntry.id]);
    expect(await slots((await person('Другая')).h, `?user_id=${u.id}`)).toEqual([]);
    const before = await liveEntries(u.id);

    // The «Мои публикации → Добавить публикацию» form: service_id, no entry_id.
    const res = await create(u.h, article({ service_id: internetServiceId }));
    expect(res.statusCode, res.body).toBe(200);
    const p: Publication = res.json().data;
    expect(p.entries.map((e) => e.id)).toEqual([slotEntry.id]);
    expect(p).toMatchObject({ is_paid: true, entry: { is_paid: true, price: 720 } });
    expect(res.json().entry_note).toBe(PublicationMessages.slotUsed(slot));
    expect(res.json().entry_note).toContain('Новая заявка не создана');
    expect(await liveEntries(u.id)).toEqual(before);
    expect(await me(u)).toMatchObject({ left_sum: 0, entries_unpaid_num: 0 });
    // The slot is used: the next article is a new entry to be paid.
    expect(await slots(u.h)).toEqual([]);
    const next = await create(u.h, article({ service_id: internetServiceId, title: 'Вторая статья' }));
    expect(next.statusCode, next.body).toBe(200);
    expect(next.json().entry_note).toBeNull();
    expect(next.json().data.entry).toMatchObject({ status: 1, is_paid: false, price: 900 });
  });

  it('more authors than the slot covers: a new entry at the price for them, the answer says why, and the slot stays free', async () => {
    const u = await person('Соавторская');
    const slotEntry = await paidPackage(u);
    const [slot] = await slots(u.h);
    const before = await liveEntries(u.id);
    const res = await create(u.h, article({ service_id: internetServiceId, authors_num: 2, authors: [{ fio: 'Соавторова Мария' }] }));
    expect(res.statusCode, res.body).toBe(200);
    const p: Publication = res.json().data;
    expect(p.entry?.id).not.toBe(slotEntry.id);
    expect(p.entry).toMatchObject({ status: 1, is_paid: false, price: 1300 });
    expect(p.is_paid).toBe(false);
    expect(res.json().entry_note).toBe(PublicationMessages.slotTooFewAuthors(slot, 2, true));
    expect(res.json().entry_note).toContain('включает публикацию 1 автора');
    expect((await liveEntries(u.id)).length).toBe(before.length + 1);
    expect((await slots(u.h)).map((x: { entry_id: number }) => x.entry_id)).toEqual([slotEntry.id]);
    // The catalogue's form (dict_subtype_id) takes the slot too.
    const viaSubtype = await create(u.h, article({ dict_subtype_id: 5, title: 'Через каталог' }));
    expect(viaSubtype.statusCode, viaSubtype.body).toBe(200);
    expect(viaSubtype.json().data.entry.id).toBe(slotEntry.id);
  });

  it('two articles sent at once never share one slot', async () => {
    const u = await person('Гонкова');
    const slotEntry = await paidPackage(u);
    const [a, b] = await Promise.all([
      create(u.h, article({ service_id: internetServiceId, title: 'Первая' })),
      create(u.h, article({ service_id: internetServiceId, title: 'Вторая' })),
    ]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const ids = [a.json().data.entry.id, b.json().data.entry.id];
    expect(ids.filter((id) => id === slotEntry.id)).toHaveLength(1);
  });
});

describe('a rejected publication leaves no debt', () => {
  it('rejecting cancels its unpaid entry (badge, left_sum, the list); taking the rejection back restores it', async () => {
    const u = await person('Отклонова');
    const res = await create(u.h, article({ service_id: internetServiceId }));
    expect(res.statusCode, res.body).toBe(200);
    const p: Publication = res.json().data;
    expect(await me(u)).toMatchObject({ left_sum: 900, entries_unpaid_num: 1 });

    expect((await act(p.id, 'reject', { manager_comment: 'Не по теме журнала' })).statusCode).toBe(200);
    expect(await me(u)).toMatchObject({ left_sum: 0, entries_unpaid_num: 0 });
    expect(await liveEntries(u.id)).toEqual([]);
    const list = (await t.inject({ method: 'GET', url: '/api/entry', headers: u.h })).json();
    expect(list.data).toEqual([]);
    const card = (await t.inject({ method: 'GET', url: `/api/publication/${p.id}`, headers: u.h })).json().data as Publication;
    expect(card.entries).toEqual([]);
    // Nothing to pay: the pay call finds no entry.
    expect((await t.inject({ method: 'POST', url: `/api/entry/${p.entry!.id}/pay`, headers: u.h, payload: {} })).statusCode).toBe(404);
    const log = await rows<{ diff: Record<string, { new: unknown }> }>(
      t.database.db,
      sql`select diff from change_logs where type = 'entry' and entity_id = ${p.entry!.id} order by id desc limit 1`,
    );
    expect(JSON.stringify(log[0].diff)).toContain(LogReasons.publicationRejected);

    // The operator reconsiders: the entry is owed again.
    expect((await act(p.id, 'accept')).statusCode).toBe(200);
    expect(await me(u)).toMatchObject({ left_sum: 900, entries_unpaid_num: 1 });

    // Rejected again and deleted by the author: still nothing owed.
    expect((await act(p.id, 'reject', { is_silent: true })).statusCode).toBe(200);
    expect((await t.inject({ method: 'DELETE', url: `/api/publication/${p.id}`, headers: u.h })).statusCode).toBe(200);
    expect(await me(u)).toMatchObject({ left_sum: 0, entries_unpaid_num: 0 });
    const users = (await t.inject({ method: 'GET', url: `/api/manager/users?id=${u.id}`, headers: operator })).json().data;
    expect(users[0].left_sum).toBe(0);
  });

  it('an operator deleting a pending publication leaves nothing owed; a paid entry stays paid when its publication is rejected', async () => {
    const u = await person('Удалёнова');
    const p: Publication = (await create(u.h, article({ service_id: internetServiceId }))).json().data;
    expect((await t.inject({ method: 'DELETE', url: `/api/publication/${p.id}`, headers: operator })).statusCode).toBe(200);
    expect(await me(u)).toMatchObject({ left_sum: 0, entries_unpaid_num: 0 });

    const q: Publication = (await create(u.h, article({ service_id: internetServiceId, title: 'Оплаченная' }))).json().data;
    expect((await t.inject({ method: 'POST', url: `/api/entry/${q.entry!.id}/pay`, headers: operator, payload: { pay_type: 1 } })).statusCode).toBe(200);
    expect((await act(q.id, 'reject', { manager_comment: 'Плагиат' })).statusCode).toBe(200);
    expect(await liveEntries(u.id)).toEqual([{ id: q.entry!.id, status: 2, price: expect.anything() }]);
    // Once the rejected card is deleted, the paid entry takes a new article.
    expect((await t.inject({ method: 'DELETE', url: `/api/publication/${q.id}`, headers: u.h })).statusCode).toBe(200);
    expect(await entry(u.h, q.entry!.id)).toMatchObject({ status: 2, can_add_publication: true });
  });
});

describe('the entry carries its contract', () => {
  it('pending without a scan, then the scan and the status of its contract row', async () => {
    const u = await person('Договорова');
    const course = await makeService(t.database.db, { title: 'Курсы ПК', dict_type_id: 3, price: 0 });
    const res = await t.inject({ method: 'POST', url: '/api/entry', headers: u.h, payload: { service_id: course.id } });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().data.id as number;
    expect((await entry(operator, id)).contract).toEqual({
      id: null,
      status: 1,
      statusLabel: 'Ожидает проверки',
      statusColor: 'yellow',
      comment: null,
      file: null,
    });
    const [f] = await t.database.db
      .insert(files)
      .values({ user_id: u.id, name: 'scan.pdf', mime: 'application/pdf', size: 10, storage_key: `k-${id}` })
      .returning();
    await t.database.db.insert(contracts).values({ entry_id: id, user_id: u.id, service_id: course.id, status: 3, comment: 'Нет подписи', file_id: f.id });
    const e = await entry(operator, id);
    expect(e.contract).toMatchObject({
      status: 3,
      statusLabel: 'Отклонён',
      comment: 'Нет подписи',
      file: { id: f.id, name: 'scan.pdf', url: `/api/file/${f.id}` },
    });
    expect(e.publication).toBeNull();
    // A webinar needs no contract.
    const plain = await makeService(t.database.db, { title: 'Вебинар', price: 0 });
    const w = await t.inject({ method: 'POST', url: '/api/entry', headers: u.h, payload: { service_id: plain.id } });
    expect(w.json().data.contract).toBeNull();
  });
});

describe('a uniqueness match names what was copied', () => {
  it('an operator reads the source publication (number, title, author); another client does not', async () => {
    const a = await person('Первоисточникова');
    const b = await person('Копирова');
    const source: Publication = (await create(a.h, article({ service_id: internetServiceId, title: 'Оригинал' }))).json().data;
    await t.database.db.execute(sql`update jobs set done_at = now() where name = 'check-publication-uniqueness'`);
    expect((await act(source.id, 'check-uniqueness')).statusCode).toBe(200);
    const copy: Publication = (await create(b.h, article({ service_id: internetServiceId, title: 'Копия' }))).json().data;
    await t.database.db.execute(sql`update jobs set done_at = now() where name = 'check-publication-uniqueness'`);
    const res = await act(copy.id, 'check-uniqueness');
    expect(res.statusCode, res.body).toBe(200);
    const match = (res.json().data as Publication).matches[0];
    expect(match.source).toEqual({
      id: source.id,
      title: 'Оригинал',
      number: source.entry!.number,
      author: 'Первоисточникова Анна Петровна',
      status: 1,
      statusLabel: 'Ожидает проверки',
    });
    const mine = (await t.inject({ method: 'GET', url: `/api/publication/${copy.id}`, headers: b.h })).json().data as Publication;
    expect(mine.matches[0].source).toBeNull();
    expect(mine.matches[0].percent).toBe(match.percent);
  });
});
