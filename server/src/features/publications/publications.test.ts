import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { EventId, PublicationStatus } from '@edu/domain/common/codes';
import { Messages } from '@edu/domain/common/messages';
import { DocumentMessages } from '@edu/domain/documents/documents';
import { PublicationMessages, type Publication } from '@edu/domain/publications/publication';
import { CoAuthorMessages } from '@edu/domain/publications/co-authors';
import { loggedLongText } from '@edu/domain/logs/log';
import { publicationPrices, publicationReleases } from '../../db/schema/index.ts';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { makeService } from '../../../test/fixtures.ts';
import { multipart, PDF } from '../../../test/documents-fixtures.ts';
import { startFakeJoomla, type FakeJoomla } from '../../../test/fake-joomla.ts';
import { rows } from '../../platform/db.ts';
import { PoolBusyError } from '../../platform/worker-pool.ts';
import { sanitizeRichHtml } from '../../platform/rich-html.ts';
import { IN_PROCESS_CLEAN_MAX } from './routes.ts';
import { recheckDelaySeconds } from './jobs.ts';

let t: TestApp;
/** The journal's site (CMS_JOURNAL_URL), where publications go; `mainSite` is the services' site. */
let joomla: FakeJoomla;
let mainSite: FakeJoomla;
let operator: Record<string, string>;
let internetServiceId: number;
let journalServiceId: number;
let journalRelease: number;
let otherRelease: number;
let hiddenRelease: number;

/** An HTML text of about `n` plain characters. */
function longText(n = 3300, seed = 'Проектная деятельность младших школьников'): string {
  const words: string[] = [];
  let i = 0;
  while (words.join(' ').length < n) words.push(`${seed.split(' ')[i % 4]}${i++}`);
  return `<p>${words.join(' ')}</p>`;
}

const internetBody = (extra: Record<string, unknown> = {}) => ({
  service_id: internetServiceId,
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

async function create(h: Record<string, string>, body: Record<string, unknown> = internetBody()) {
  return t.inject({ method: 'POST', url: '/api/publication', headers: h, payload: body });
}

async function created(h: Record<string, string>, body?: Record<string, unknown>): Promise<Publication> {
  const res = await create(h, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data;
}

/** The invited co-author accepts (co-authors.ts). */
const accept = (h: Record<string, string>, id: number) => t.inject({ method: 'POST', url: `/api/publication/${id}/accept-invitation`, headers: h });

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

/** The operator marks the publication's entry paid (bank). */
async function pay(p: Publication) {
  const res = await t.inject({ method: 'POST', url: `/api/entry/${p.entry!.id}/pay`, headers: operator, payload: { pay_type: 1 } });
  expect(res.statusCode, res.body).toBe(200);
}

/** The route itself, without the test helper's confirmation. */
const post = (url: string, payload?: Record<string, unknown>) => t.inject({ method: 'POST', url, headers: operator, ...(payload ? { payload } : {}) });

async function statusOf(id: number): Promise<number> {
  const [r] = await rows<{ status: number }>(t.database.db, sql`select status from publications where id = ${id}`);
  return r.status;
}

async function eventsOf(id: number) {
  return rows<{ event_id: number; user_id: number }>(t.database.db, sql`select event_id, user_id from event_outbox where publication_id = ${id} order by id`);
}

beforeAll(async () => {
  joomla = await startFakeJoomla({ token: 'journal-token' });
  mainSite = await startFakeJoomla({ token: 'site-token' });
  t = await createTestApp({ cms: { site: { url: mainSite.url, token: mainSite.token }, journal: { url: joomla.url, token: joomla.token } } });
  operator = await t.loginAs(await t.createUser({ role: 1, last_name: 'Операторова' }));
  const db = t.database.db;
  internetServiceId = (
    await makeService(db, { title: 'Интернет-публикация', dict_type_id: 5, dict_subtype_id: 5, is_publication: true, price: 0, date_type: 2 })
  ).id;
  journalServiceId = (
    await makeService(db, { title: 'Публикация в журнале', dict_type_id: 5, dict_subtype_id: 4, is_publication: true, price: 0, date_type: 2 })
  ).id;
  await db.insert(publicationPrices).values([
    { dict_service_subtype_id: 5, authors_num: 1, price: 1000 },
    { dict_service_subtype_id: 5, authors_num: 2, price: 1500 },
    { dict_service_subtype_id: 4, authors_num: 1, price: 2000 },
  ]);
  const releases = await db
    .insert(publicationReleases)
    .values([
      { title: 'Выпуск № 1', dict_service_subtype_id: 4 },
      { title: 'Сборник конференции', dict_service_subtype_id: 6 },
      { title: 'Выпуск № 0 (закрыт)', dict_service_subtype_id: 4, is_hidden: true },
    ])
    .returning({ id: publicationReleases.id });
  [journalRelease, otherRelease, hiddenRelease] = releases.map((r) => r.id);
  await db.execute(sql`update dict_publication_categories set joomla_category_id = 7 where id = 2`);
});
afterAll(async () => {
  await t.close();
  await joomla.close();
  await mainSite.close();
});

describe('creating a publication', () => {
  it('creates the entry at the price for the number of authors, makes the creator the first author and schedules the check', async () => {
    const u = await person('Смирнова');
    const res = await create(u.h);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.message).toBe(PublicationMessages.saved);
    expect(body.info).toBe(PublicationMessages.willBeChecked);
    const p: Publication = body.data;
    expect(p).toMatchObject({ status: 1, statusLabel: 'Ожидает проверки', price: 1000, authors_num: 1, type: 1, dict_category_id: 2 });
    expect(p.service).toMatchObject({ id: internetServiceId, dict_subtype_id: 5 });
    expect(p.entry).toMatchObject({ status: 1, is_paid: false, price: 1000, user: { id: u.id } });
    expect(p.authors).toEqual([{ id: expect.any(Number), user_id: u.id, fio: 'Смирнова Анна Петровна', pending: false }]);
    expect(p.created_at_formatted).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);
    const jobs = await rows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from jobs where name = 'check-publication-uniqueness' and unique_key = ${`publication:${p.id}`}`,
    );
    expect(jobs[0].n).toBe(1);
    const log = await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from change_logs where type = 'publication' and entity_id = ${p.id}`);
    expect(log[0].n).toBe(1);
  });

  it('takes the subtype instead of the service (the catalogue form) and two publications on one service', async () => {
    const u = await person('Орлова');
    const a = await created(u.h, internetBody({ service_id: undefined, dict_subtype_id: 5 }));
    const b = await created(
      u.h,
      internetBody({ service_id: undefined, dict_subtype_id: 5, title: 'Вторая статья', text: longText(3300, 'Совсем другой текст статьи') }),
    );
    expect(a.service?.id).toBe(internetServiceId);
    expect(b.entry?.id).not.toBe(a.entry?.id);
  });

  it('answers every missing field at once in Russian', async () => {
    const u = await person('Пустова');
    const res = await create(u.h, { service_id: internetServiceId, title: '' });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(Messages.required);
    expect(res.json().errors.title).toEqual([PublicationMessages.enterTitle]);
    const full = await create(u.h, { service_id: internetServiceId, title: 'Без полей' });
    expect(full.statusCode).toBe(422);
    expect(full.json().errors).toMatchObject({
      dict_category_id: [PublicationMessages.chooseCategory],
      type: [PublicationMessages.chooseType],
      text: [PublicationMessages.enterText],
      authors_num: [PublicationMessages.chooseAuthorsNum],
    });
    const journal = await create(u.h, { service_id: journalServiceId, title: 'Без выпуска', dict_category_id: 1, authors_num: 1 });
    expect(journal.json().errors).toMatchObject({ release_id: [PublicationMessages.chooseRelease], file: [PublicationMessages.attachFile] });
    const noService = await create(u.h, { title: 'x' });
    expect(noService.json().errors.service_id).toEqual([PublicationMessages.chooseService]);
    const ordinary = await makeService(t.database.db, { title: 'Обычный вебинар' });
    const wrong = await create(u.h, internetBody({ service_id: ordinary.id }));
    expect(wrong.json().errors.service_id).toEqual([PublicationMessages.serviceNotPublication]);
  });

  it('holds internet texts to 3200 plain characters and 32500 formatted', async () => {
    const u = await person('Краткова');
    // Markup does not count: 3000 letters wrapped in lots of tags are still too short.
    const short = `<p><strong>${'а'.repeat(1500)}</strong></p><p><em>${'б'.repeat(1500)}</em></p>`;
    const res = await create(u.h, internetBody({ text: short }));
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.text).toEqual([PublicationMessages.internetTooShort]);
    const long = `<p>${'слово '.repeat(5500)}</p>`;
    const tooLong = await create(u.h, internetBody({ text: long }));
    expect(tooLong.json().errors.text).toEqual([PublicationMessages.tooManyCharacters]);
    const exact = await create(u.h, internetBody({ text: `<p>${'я'.repeat(3200)}</p>` }));
    expect(exact.statusCode, exact.body).toBe(200);
  });

  it('sanitises the HTML', async () => {
    const u = await person('Чистова');
    const dirty = `<p onclick="steal()">Текст<script>alert(1)</script> <a href="javascript:alert(1)">ссылка</a> <img src=x onerror=alert(1)></p>${longText()}`;
    const p = await created(u.h, internetBody({ text: dirty }));
    const res = await t.inject({ method: 'GET', url: `/api/publication/${p.id}`, headers: u.h });
    const text: string = res.json().data.text;
    expect(text).not.toMatch(/script|onclick|onerror|javascript:|<img/i);
    expect(text).toContain('<p>Текст');
  });

  it('prices by the number of authors and limits co-authors to authors_num - 1', async () => {
    const u = await person('Двоева');
    const co = await person('Соавторова');
    const p = await created(u.h, internetBody({ authors_num: 2, authors: [{ user_id: co.id, fio: 'Соавторова Анна Петровна' }] }));
    expect(p.price).toBe(1500);
    expect(p.entry?.price).toBe(1500);
    expect(p.authors.map((a) => a.fio)).toEqual(['Двоева Анна Петровна', 'Соавторова Анна Петровна']);
    const tooMany = await create(u.h, internetBody({ authors_num: 2, authors: [{ fio: 'Первый' }, { fio: 'Второй' }] }));
    expect(tooMany.json().errors.authors).toEqual([PublicationMessages.tooManyAuthors(1)]);
    const noPrice = await create(u.h, internetBody({ authors_num: 3 }));
    expect(noPrice.json().errors.authors_num).toEqual([PublicationMessages.noPrice]);
    const emptyName = await create(u.h, internetBody({ authors_num: 2, authors: [{ fio: ' ' }] }));
    expect(emptyName.json().errors.fio).toEqual([PublicationMessages.enterFioFirst]);
    const unknownUser = await create(u.h, internetBody({ authors_num: 2, authors: [{ user_id: 2_000_000_000, fio: 'Никто' }] }));
    expect(unknownUser.json().errors.authors).toEqual([PublicationMessages.chooseAuthor]);
  });

  it('takes a journal article as a file with a release of its subtype, and additional files on create', async () => {
    const u = await person('Журналова');
    const form = (fields: Record<string, string>, file: Buffer = PDF, type = 'application/pdf') =>
      multipart([
        ...Object.entries(fields).map(([field, content]) => ({ field, content })),
        { field: 'file', filename: 'article.pdf', content: file, type },
        { field: 'additionalFiles[]', filename: 'annex.pdf', content: PDF, type: 'application/pdf' },
      ]);
    const fields = {
      service_id: String(journalServiceId),
      title: 'Статья в журнал',
      dict_category_id: '3',
      release_id: String(journalRelease),
      authors_num: '1',
      authors: '[]',
    };
    const body = form(fields);
    const res = await t.inject({ method: 'POST', url: '/api/publication', headers: { ...u.h, ...body.headers }, payload: body.payload });
    expect(res.statusCode, res.body).toBe(200);
    const p: Publication = res.json().data;
    expect(p).toMatchObject({ price: 2000, release: { id: journalRelease, title: 'Выпуск № 1' }, publication_has_file: true, text: null });
    expect(res.json().info).toBeNull();
    expect(p.file?.url).toBe(`/api/publication/${p.id}/file/${p.file?.id}`);
    expect(p.additionalFiles).toHaveLength(1);
    const download = await t.inject({ method: 'GET', url: p.file!.url, headers: u.h });
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    const stranger = await person('Чужова');
    expect((await t.inject({ method: 'GET', url: p.file!.url, headers: stranger.h })).statusCode).toBe(404);

    const wrongRelease = form({ ...fields, release_id: String(otherRelease) });
    const r2 = await t.inject({ method: 'POST', url: '/api/publication', headers: { ...u.h, ...wrongRelease.headers }, payload: wrongRelease.payload });
    expect(r2.json().errors.release_id).toEqual([PublicationMessages.releaseNotOfSubtype]);
    const hidden = form({ ...fields, release_id: String(hiddenRelease) });
    const r3 = await t.inject({ method: 'POST', url: '/api/publication', headers: { ...u.h, ...hidden.headers }, payload: hidden.payload });
    expect(r3.json().errors.release_id).toEqual([PublicationMessages.releaseHidden]);
    const exe = form(fields, Buffer.from('MZ\x90\x00 not a document'), 'application/pdf');
    const r4 = await t.inject({ method: 'POST', url: '/api/publication', headers: { ...u.h, ...exe.headers }, payload: exe.payload });
    expect(r4.statusCode).toBe(422);
    expect(r4.json().errors.file).toEqual([DocumentMessages.fileType]);
  });

  it('an operator submits for a client (user_id); a user cannot', async () => {
    const client = await person('Клиентова');
    const p = await created(operator, internetBody({ user_id: client.id }));
    expect(p.created_by).toBe(client.id);
    expect(p.entry?.user.id).toBe(client.id);
    expect((await t.inject({ method: 'GET', url: `/api/publication/${p.id}`, headers: client.h })).statusCode).toBe(200);
    const other = await person('Самозванова');
    const mine = await created(other.h, internetBody({ user_id: client.id }));
    expect(mine.created_by).toBe(other.id);
    const unknown = await create(operator, internetBody({ user_id: 2_000_000_000 }));
    expect(unknown.json().errors.user_id).toEqual([PublicationMessages.chooseAuthor]);
  });

  it('attaches to an existing entry of the user, never to another user’s or a busy one', async () => {
    const u = await person('Заявкина');
    const other = await person('Другая');
    const first = await created(u.h);
    const busy = await create(u.h, internetBody({ service_id: undefined, entry_id: first.entry!.id }));
    expect(busy.json().errors.entry_id).toEqual([PublicationMessages.entryHasPublication]);
    const foreign = await create(other.h, internetBody({ service_id: undefined, entry_id: first.entry!.id }));
    expect(foreign.json().errors.entry_id).toEqual([PublicationMessages.entryNotYours]);
  });
});

describe('who sees and deletes what', () => {
  it('a user sees what they created or co-author; another user gets 404; operators see all', async () => {
    const owner = await person('Владелица');
    const co = await person('Соавторка');
    const stranger = await person('Посторонняя');
    const p = await created(owner.h, internetBody({ authors_num: 2, authors: [{ user_id: co.id, fio: 'Соавторка Анна Петровна' }] }));
    expect((await accept(co.h, p.id)).statusCode).toBe(200);
    const list = async (h: Record<string, string>, q = '') => (await t.inject({ method: 'GET', url: `/api/publication${q}`, headers: h })).json();
    expect((await list(owner.h)).data.map((x: Publication) => x.id)).toEqual([p.id]);
    expect((await list(co.h)).data.map((x: Publication) => x.id)).toEqual([p.id]);
    expect((await list(stranger.h)).data).toEqual([]);
    // userId and fio are operators' filters: a user cannot widen their list with them.
    expect((await list(stranger.h, `?userId=${owner.id}`)).data).toEqual([]);
    expect((await list(operator, `?userId=${owner.id}`)).data.map((x: Publication) => x.id)).toEqual([p.id]);
    expect((await list(operator, `?fio=${encodeURIComponent('Владелица')}`)).data.map((x: Publication) => x.id)).toEqual([p.id]);
    expect((await t.inject({ method: 'GET', url: `/api/publication/${p.id}`, headers: stranger.h })).statusCode).toBe(404);
    expect((await t.inject({ method: 'GET', url: `/api/publication/${p.id}`, headers: co.h })).statusCode).toBe(200);
    const listed = (await list(owner.h)).data[0] as Publication;
    expect(listed.text!.length).toBeLessThanOrEqual(301);
    expect(listed.text).not.toContain('<p>');
    expect((await list(owner.h)).meta).toMatchObject({ current_page: 1, last_page: 1, total: 1, per_page: 15 });
  });

  it('linking an account is an invitation: nobody is linked by a typed name until they accept; operators link at once', async () => {
    const owner = await person('Приглашающая');
    const invited = await person('Приглашённая');
    const other = await person('Безучастная');
    const p = await created(owner.h, internetBody({ authors_num: 2, authors: [{ user_id: invited.id, fio: 'Кто Угодно' }] }));
    // Shown by the account's own name, not the typed one (issue 29).
    expect(p.authors[1]).toMatchObject({ user_id: invited.id, fio: 'Приглашённая Анна Петровна', pending: true });
    const mine = async (h: Record<string, string>) =>
      (await t.inject({ method: 'GET', url: '/api/publication', headers: h })).json().data.map((x: Publication) => x.id);
    // Not theirs yet: not in their list, not readable, no letters.
    expect(await mine(invited.h)).toEqual([]);
    expect((await t.inject({ method: 'GET', url: `/api/publication/${p.id}`, headers: invited.h })).statusCode).toBe(404);
    // They are asked: a notification and the invitation list.
    const [note] = await rows<{ text_clear: string; url: string }>(
      t.database.db,
      sql`select text_clear, url from notifications where user_id = ${invited.id} order by id desc limit 1`,
    );
    expect(note.text_clear).toContain(`«${p.title}»`);
    expect(note.url).toBe('/user/publication');
    const invitations = (await t.inject({ method: 'GET', url: '/api/publication/invitations', headers: invited.h })).json().data;
    expect(invitations).toEqual([{ publication_id: p.id, title: p.title, fio: 'Кто Угодно', inviter: 'Приглашающая Анна Петровна' }]);
    // Only the invited account can answer.
    expect((await accept(other.h, p.id)).statusCode).toBe(404);
    expect((await accept(owner.h, p.id)).statusCode).toBe(404);
    const yes = await accept(invited.h, p.id);
    expect(yes.json().message).toBe(CoAuthorMessages.accepted);
    expect(await mine(invited.h)).toEqual([p.id]);
    expect((await accept(invited.h, p.id)).statusCode).toBe(404);
    // An edit that keeps the co-author keeps the consent.
    const edit = await t.inject({
      method: 'PUT',
      url: `/api/publication/${p.id}`,
      headers: owner.h,
      payload: internetBody({ service_id: undefined, title: 'Новое название', authors_num: 2, authors: [{ user_id: invited.id, fio: 'Кто Угодно' }] }),
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(await mine(invited.h)).toEqual([p.id]);

    // Declining keeps the typed name and links nobody.
    const q = await created(owner.h, internetBody({ authors_num: 2, authors: [{ user_id: other.id, fio: 'Безучастная' }] }));
    const no = await t.inject({ method: 'POST', url: `/api/publication/${q.id}/decline-invitation`, headers: other.h });
    expect(no.json().message).toBe(CoAuthorMessages.declined);
    expect(await mine(other.h)).toEqual([]);
    const after = (await t.inject({ method: 'GET', url: `/api/publication/${q.id}`, headers: owner.h })).json().data as Publication;
    expect(after.authors[1]).toMatchObject({ user_id: null, fio: 'Безучастная', pending: false });

    // An operator's link needs no invitation.
    const r = await created(operator, internetBody({ user_id: owner.id, authors_num: 2, authors: [{ user_id: other.id, fio: 'Безучастная' }] }));
    expect(r.authors[1]).toMatchObject({ user_id: other.id, pending: false });
    expect(await mine(other.h)).toEqual([r.id]);
  });

  it("a declined invitation is not sent again, an account is linked once, a linked co-author has the account's name (issue 29)", async () => {
    const owner = await person('Настойчивая');
    const invited = await person('Отказавшаяся');
    const notes = async () => (await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from notifications where user_id = ${invited.id}`))[0].n;
    const edit = (h: Record<string, string>, id: number, authors?: Array<{ user_id: number | null; fio: string }>) =>
      t.inject({ method: 'PUT', url: `/api/publication/${id}`, headers: h, payload: internetBody({ service_id: undefined, authors_num: 2, authors }) });

    // The same account twice: refused, nobody asked.
    const twice = await create(
      owner.h,
      internetBody({
        authors_num: 3,
        authors: [
          { user_id: invited.id, fio: 'Первая' },
          { user_id: invited.id, fio: 'Вторая' },
        ],
      }),
    );
    expect(twice.statusCode).toBe(422);
    expect(twice.json().errors.authors).toEqual([CoAuthorMessages.duplicate]);
    expect(await notes()).toBe(0);

    // A typed name does not rename a real account: the author and the operator see the account's name.
    const p = await created(owner.h, internetBody({ authors_num: 2, authors: [{ user_id: invited.id, fio: 'Подставной Автор' }] }));
    expect(p.authors[1]).toMatchObject({ user_id: invited.id, fio: 'Отказавшаяся Анна Петровна', pending: true });
    const listed = (await t.inject({ method: 'GET', url: `/api/publication/${p.id}`, headers: operator })).json().data as Publication;
    expect(listed.authors.map((a) => a.fio)).toEqual(['Настойчивая Анна Петровна', 'Отказавшаяся Анна Петровна']);
    expect(await notes()).toBe(1);

    // Declined: five edits that link the account again are refused in Russian and ask nobody.
    expect((await t.inject({ method: 'POST', url: `/api/publication/${p.id}/decline-invitation`, headers: invited.h })).statusCode).toBe(200);
    for (let i = 0; i < 5; i++) {
      const again = await edit(owner.h, p.id, [{ user_id: invited.id, fio: 'Подставной Автор' }]);
      expect(again.statusCode).toBe(422);
      expect(again.json().errors.authors).toEqual([CoAuthorMessages.declinedBefore('Отказавшаяся Анна Петровна')]);
    }
    expect(await notes()).toBe(1);
    // The typed name alone is only a name, and stays.
    const plain = await edit(owner.h, p.id, [{ user_id: null, fio: 'Подставной Автор' }]);
    expect(plain.statusCode, plain.body).toBe(200);
    expect(plain.json().data.authors[1]).toMatchObject({ user_id: null, fio: 'Подставной Автор' });
    // An operator acts for the centre and may link the account.
    const byOperator = await edit(operator, p.id, [{ user_id: invited.id, fio: 'Подставной Автор' }]);
    expect(byOperator.statusCode, byOperator.body).toBe(200);
    expect(byOperator.json().data.authors[1]).toMatchObject({ user_id: invited.id, fio: 'Отказавшаяся Анна Петровна', pending: false });
    expect(await notes()).toBe(1);

    // An account linked twice before duplicates were refused does not block an edit that leaves the authors alone.
    const [price] = await t.database.db.insert(publicationPrices).values({ dict_service_subtype_id: 5, authors_num: 3, price: 2000 }).returning();
    try {
      const q = await created(owner.h, internetBody({ authors_num: 3, authors: [{ user_id: null, fio: 'Вписанный' }] }));
      await t.database.db.execute(sql`update publication_authors set user_id = ${invited.id} where publication_id = ${q.id} and position = 1`);
      await t.database.db.execute(sql`insert into publication_authors (publication_id, user_id, fio, position) values (${q.id}, ${invited.id}, 'Вторая', 2)`);
      const untouched = await t.inject({
        method: 'PUT',
        url: `/api/publication/${q.id}`,
        headers: owner.h,
        payload: internetBody({ service_id: undefined, title: 'Другое название', authors_num: 3 }),
      });
      expect(untouched.statusCode, untouched.body).toBe(200);
    } finally {
      // Out of the way of the other tests (no price for three authors), still there for the publication that uses it.
      await t.database.db.update(publicationPrices).set({ authors_num: 99 }).where(eq(publicationPrices.id, price.id));
    }
  });

  it('finds co-authors by name for any signed-in user, id and name only', async () => {
    const u = await person('Искалова');
    const found = await person('Уникальнова');
    const res = await t.inject({ method: 'GET', url: `/api/publication/authors?fio=${encodeURIComponent('уникальнова анна')}`, headers: u.h });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([{ id: found.id, fio: 'Уникальнова Анна Петровна' }]);
    expect((await t.inject({ method: 'GET', url: '/api/publication/authors?fio=', headers: u.h })).json().data).toEqual([]);
    expect((await t.inject({ method: 'GET', url: '/api/publication/authors?fio=x' })).statusCode).toBe(401);
  });

  it('the manager comment reaches the owner only when declined or rejected', async () => {
    const u = await person('Комментова');
    const p = await created(u.h);
    await t.database.db.execute(sql`update publications set manager_comment = 'Внутренняя заметка' where id = ${p.id}`);
    const view = async () => (await t.inject({ method: 'GET', url: `/api/publication/${p.id}`, headers: u.h })).json().data as Publication;
    expect((await view()).manager_comment).toBeNull();
    expect((await t.inject({ method: 'GET', url: `/api/publication/${p.id}`, headers: operator })).json().data.manager_comment).toBe('Внутренняя заметка');
    await act(p.id, 'decline', { manager_comment: 'Добавьте список литературы' });
    expect((await view()).manager_comment).toBe('Добавьте список литературы');
  });

  it('a user deletes only their own rejected publication; operators any', async () => {
    const u = await person('Удалова');
    const co = await person('Соудалова');
    const stranger = await person('Неудалова');
    const p = await created(u.h, internetBody({ authors_num: 2, authors: [{ user_id: co.id, fio: 'Соудалова' }] }));
    expect((await accept(co.h, p.id)).statusCode).toBe(200);
    const del = (h: Record<string, string>, id = p.id) => t.inject({ method: 'DELETE', url: `/api/publication/${id}`, headers: h });
    const pending = await del(u.h);
    expect(pending.statusCode).toBe(422);
    expect(pending.json().message).toBe(PublicationMessages.onlyRejectedDelete);
    await act(p.id, 'reject', { manager_comment: 'Не по теме журнала' });
    expect((await del(stranger.h)).statusCode).toBe(404);
    expect((await del(co.h)).statusCode).toBe(403);
    const ok = await del(u.h);
    expect(ok.statusCode).toBe(200);
    expect(ok.json().message).toBe(PublicationMessages.deleted);
    expect((await t.inject({ method: 'GET', url: `/api/publication/${p.id}`, headers: u.h })).statusCode).toBe(404);
    const [row] = await rows<{ deleted_at: Date | null }>(t.database.db, sql`select deleted_at from publications where id = ${p.id}`);
    expect(row.deleted_at).not.toBeNull();
    const q = await created(u.h);
    expect((await del(operator, q.id)).statusCode).toBe(200);
  });
});

describe('moderation', () => {
  it('accept, decline, reject and send to the journal move only from their allowed statuses, log and notify', async () => {
    const u = await person('Модерова');
    const p = await created(u.h);
    const accepted = await act(p.id, 'accept');
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json()).toMatchObject({ message: PublicationMessages.statusChanged, data: { status: 2, statusLabel: 'Одобрена', statusColor: 'teal' } });
    const again = await act(p.id, 'accept');
    expect(again.statusCode).toBe(422);
    expect(again.json().message).toBe(PublicationMessages.transitionRefused('Одобрена'));
    expect((await act(p.id, 'decline', { manager_comment: 'Поправьте таблицы' })).json().data.status).toBe(PublicationStatus.rework);
    expect((await act(p.id, 'send-to-journal')).json().message).toBe(PublicationMessages.transitionRefused('Требует доработок'));
    expect((await act(p.id, 'accept')).json().data.status).toBe(PublicationStatus.approved);
    // 'В журнал' only for journal publications.
    const notJournal = await act(p.id, 'send-to-journal');
    expect(notJournal.statusCode).toBe(422);
    expect(notJournal.json().message).toBe(PublicationMessages.notJournal);
    await t.database.db.execute(sql`update publications set is_journal = true where id = ${p.id}`);
    expect((await act(p.id, 'send-to-journal')).json().data.status).toBe(PublicationStatus.journal);
    // Taken to the journal: nothing moves it any more.
    for (const action of ['accept', 'decline', 'send-to-journal']) expect((await act(p.id, action)).statusCode).toBe(422);
    expect((await act(p.id, 'reject', { manager_comment: 'x' })).statusCode).toBe(422);
    const events = await eventsOf(p.id);
    expect(events.map((e) => e.event_id)).toEqual([
      EventId.publicationApproved,
      EventId.publicationRework,
      EventId.publicationApproved,
      EventId.publicationInJournal,
    ]);
    expect(events.every((e) => e.user_id === u.id)).toBe(true);
    const log = await rows<{ diff: Record<string, unknown> }>(
      t.database.db,
      sql`select diff from change_logs where type = 'publication' and entity_id = ${p.id} order by id`,
    );
    expect(log.length).toBe(5);
  });

  it('reject needs a reason unless silent; the silent one tells nobody', async () => {
    const u = await person('Отказова');
    const co = await person('Соотказова');
    const p = await created(u.h, internetBody({ authors_num: 2, authors: [{ user_id: co.id, fio: 'Соотказова' }] }));
    expect((await accept(co.h, p.id)).statusCode).toBe(200);
    const noReason = await act(p.id, 'reject', { manager_comment: '  ' });
    expect(noReason.statusCode).toBe(422);
    expect(noReason.json()).toMatchObject({ message: PublicationMessages.rejectReason, errors: { manager_comment: [PublicationMessages.rejectReason] } });
    const rejected = await act(p.id, 'reject', { manager_comment: 'Низкая уникальность' });
    expect(rejected.json().data).toMatchObject({ status: 0, statusLabel: 'Отклонена', manager_comment: 'Низкая уникальность' });
    expect((await eventsOf(p.id)).map((e) => [e.event_id, e.user_id])).toEqual([
      [EventId.publicationRejected, u.id],
      [EventId.publicationRejected, co.id],
    ]);
    const q = await created(u.h);
    const silent = await act(q.id, 'reject', { is_silent: true });
    expect(silent.statusCode, silent.body).toBe(200);
    expect(await statusOf(q.id)).toBe(0);
    expect(await eventsOf(q.id)).toEqual([]);
  });

  it('two operators accepting at once: one approval, one refusal, one event', async () => {
    const u = await person('Гонкина');
    const p = await created(u.h);
    const [a, b] = await Promise.all([act(p.id, 'accept'), act(p.id, 'accept')]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 422]);
    expect((await eventsOf(p.id)).length).toBe(1);
  });

  it('an unpaid publication is approved or sent to the journal only with confirm_unpaid (422 in Russian otherwise); a paid one needs nothing', async () => {
    const u = await person('Неоплатова');
    const p = await created(u.h);
    expect(p).toMatchObject({ is_paid: false, entry: { is_paid: false, status: 1 } });
    const refused = await post(`/api/publication/${p.id}/accept`);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({
      message: PublicationMessages.confirmUnpaidApprove,
      errors: { confirm_unpaid: [PublicationMessages.confirmUnpaidApprove] },
    });
    expect((await post(`/api/publication/${p.id}/accept`, { confirm_unpaid: false })).statusCode).toBe(422);
    expect(await statusOf(p.id)).toBe(PublicationStatus.pending);
    expect(await eventsOf(p.id)).toEqual([]);
    const confirmed = await post(`/api/publication/${p.id}/accept`, { confirm_unpaid: true });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().data).toMatchObject({ status: PublicationStatus.approved, is_paid: false });
    // The change log says the operator approved it unpaid.
    const [log] = await rows<{ diff: { after?: Record<string, unknown> } }>(
      t.database.db,
      sql`select diff from change_logs where type = 'publication' and entity_id = ${p.id} order by id desc limit 1`,
    );
    expect(JSON.stringify(log.diff)).toContain('confirmed_unpaid');

    // «В журнал» the same way.
    const j = await created(u.h, internetBody({ title: 'Для журнала' }));
    await t.database.db.execute(sql`update publications set is_journal = true where id = ${j.id}`);
    const journal = await post(`/api/publication/${j.id}/send-to-journal`);
    expect(journal.statusCode).toBe(422);
    expect(journal.json().message).toBe(PublicationMessages.confirmUnpaidJournal);
    expect((await post(`/api/publication/${j.id}/send-to-journal`, { confirm_unpaid: true })).statusCode).toBe(200);

    // Paid: approved without a word about payment.
    const paid = await created(u.h, internetBody({ title: 'Оплаченная статья' }));
    await pay(paid);
    const ok = await post(`/api/publication/${paid.id}/accept`);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data).toMatchObject({ status: PublicationStatus.approved, is_paid: true, entry: { is_paid: true, status: 2 } });
  });

  it('shows the payment in the list and filters by it (isPaid=1 / 0)', async () => {
    const u = await person('Фильтрова');
    const unpaid = await created(u.h, internetBody({ title: 'Неоплаченная' }));
    const paid = await created(u.h, internetBody({ title: 'Оплаченная' }));
    await pay(paid);
    const list = async (q: string) =>
      (await t.inject({ method: 'GET', url: `/api/publication?userId=${u.id}${q}`, headers: operator })).json().data as Publication[];
    expect((await list('')).map((p) => [p.id, p.is_paid])).toEqual([
      [paid.id, true],
      [unpaid.id, false],
    ]);
    expect((await list('&isPaid=1')).map((p) => p.id)).toEqual([paid.id]);
    expect((await list('&isPaid=0')).map((p) => p.id)).toEqual([unpaid.id]);
  });

  it('operator actions are refused to users and to unknown ids', async () => {
    const u = await person('Непускова');
    const p = await created(u.h);
    expect((await act(p.id, 'accept', {}, u.h)).statusCode).toBe(403);
    expect((await act(2_000_000_000, 'accept')).statusCode).toBe(404);
    expect((await t.inject({ method: 'POST', url: '/api/publication/publish-accepted', headers: u.h })).statusCode).toBe(403);
  });

  it('adds an author picked from the list, within authors_num - 1', async () => {
    const u = await person('Авторова');
    const co = await person('Добавлена');
    const p = await created(u.h, internetBody({ authors_num: 2 }));
    const bad = await act(p.id, 'add-author/abc');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toBe(PublicationMessages.chooseAuthor);
    expect((await act(p.id, 'add-author/2000000000')).json().message).toBe(PublicationMessages.chooseAuthor);
    expect((await act(p.id, `add-author/${u.id}`)).json().message).toBe(PublicationMessages.authorAlready);
    const ok = await act(p.id, `add-author/${co.id}`);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().message).toBe(PublicationMessages.authorAdded);
    expect(ok.json().data.authors.map((a: { user_id: number }) => a.user_id)).toEqual([u.id, co.id]);
    const third = await person('Лишняя');
    expect((await act(p.id, `add-author/${third.id}`)).json().message).toBe(PublicationMessages.tooManyAuthors(1));
    expect((await t.inject({ method: 'GET', url: `/api/publication/${p.id}`, headers: co.h })).statusCode).toBe(200);
  });

  it('answers the check state without the text (what the cabinet polls), to those who see the publication only', async () => {
    const u = await person('Ожидаева');
    const a = await created(u.h, internetBody({ text: longText(3400, 'Проектная деятельность на уроках биологии') }));
    const state = (h: Record<string, string>) => t.inject({ method: 'GET', url: `/api/publication/${a.id}/uniqueness-state`, headers: h });
    const queued = await state(u.h);
    expect(queued.statusCode, queued.body).toBe(200);
    expect(queued.json()).toEqual({ data: { id: a.id, uniqueness: null, uniqueness_checked_at: null, uniqueness_state: 'queued' } });
    const job = sql`name = 'check-publication-uniqueness' and unique_key = ${`publication:${a.id}`} and done_at is null`;
    await t.database.db.execute(sql`update jobs set locked_until = now() + interval '1 minute' where ${job}`);
    expect((await state(operator)).json().data.uniqueness_state).toBe('running');
    await t.database.db.execute(sql`update jobs set locked_until = null where ${job}`);
    // This publication's check itself (runDue would also run the file's earlier checks beside it, and
    // one that found the pool's queue full would wait its retry: a failure seen once on PostgreSQL).
    expect(await t.app.jobs.runNow('check-publication-uniqueness', `publication:${a.id}`)).toEqual({ state: 'done' });
    const doneAnswer = await state(u.h);
    expect(doneAnswer.statusCode, doneAnswer.body).toBe(200);
    const done = doneAnswer.json().data;
    expect(done.uniqueness_state).toBeNull();
    expect(done.uniqueness).toBeGreaterThan(0);
    expect(Date.parse(done.uniqueness_checked_at)).not.toBeNaN();
    const stranger = await person('Чужакова');
    expect((await state(stranger.h)).statusCode).toBe(404);
    expect((await t.inject({ method: 'GET', url: `/api/publication/${a.id}/uniqueness-state` })).statusCode).toBe(401);
  });

  it('checks uniqueness now for a text, and refuses a file without text', async () => {
    const u = await person('Проверкина');
    const a = await created(u.h, internetBody({ text: longText(3400, 'Формирование читательской грамотности школьников') }));
    // Its check is queued since the submit: the button says so and starts nothing twice.
    const queued = await act(a.id, 'check-uniqueness');
    expect(queued.statusCode, queued.body).toBe(202);
    expect(queued.json().message).toBe(PublicationMessages.checkQueued);
    expect(queued.json().data).toMatchObject({ uniqueness: null, uniqueness_state: 'queued' });
    const jobOf = (id: number) => sql`name = 'check-publication-uniqueness' and unique_key = ${`publication:${id}`} and done_at is null`;
    await t.database.db.execute(sql`update jobs set locked_until = now() + interval '1 minute' where ${jobOf(a.id)}`);
    const running = await act(a.id, 'check-uniqueness');
    expect(running.statusCode).toBe(202);
    expect(running.json().message).toBe(PublicationMessages.checkRunning);
    expect(running.json().data.uniqueness_state).toBe('running');
    // The list shows the state too.
    const list = (await t.inject({ method: 'GET', url: `/api/publication?userId=${u.id}`, headers: operator })).json().data as Publication[];
    expect(list.find((x) => x.id === a.id)?.uniqueness_state).toBe('running');
    await t.database.db.execute(sql`update jobs set locked_until = null where ${jobOf(a.id)}`);
    await t.app.jobs.runDue();
    const copy = await created(u.h, internetBody({ title: 'Копия', text: longText(3400, 'Формирование читательской грамотности школьников') }));
    await t.database.db.execute(sql`update jobs set done_at = now() where ${jobOf(copy.id)}`);
    const res = await act(copy.id, 'check-uniqueness');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(PublicationMessages.checkDone);
    const data: Publication = res.json().data;
    expect(data.uniqueness_state).toBeNull();
    expect(data.uniqueness).not.toBeNull();
    expect(data.uniqueness!).toBeLessThan(70);
    expect(data.matches.length).toBeGreaterThan(0);
    const fileOnly = multipart([
      { field: 'service_id', content: String(journalServiceId) },
      { field: 'title', content: 'Только файл' },
      { field: 'dict_category_id', content: '1' },
      { field: 'release_id', content: String(journalRelease) },
      { field: 'authors_num', content: '1' },
      { field: 'file', filename: 'a.pdf', content: PDF, type: 'application/pdf' },
    ]);
    const f = await t.inject({ method: 'POST', url: '/api/publication', headers: { ...u.h, ...fileOnly.headers }, payload: fileOnly.payload });
    const refused = await act(f.json().data.id, 'check-uniqueness');
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toBe(PublicationMessages.checkFileOnly);
  });
});

describe('limits of the uniqueness check', () => {
  it("refuses a user's new text with 429 while too many of their publications await the check; an edit of one waiting is fine, operators are not limited", async () => {
    const limits = t.app.config.uniqueness;
    const saved = limits.pendingPerUser;
    limits.pendingPerUser = 2;
    try {
      const u = await person('Очередёва');
      const first = await created(u.h, internetBody({ text: longText(3300, 'Первая статья об очереди проверок') }));
      await created(u.h, internetBody({ title: 'Вторая', text: longText(3300, 'Вторая статья об очереди проверок') }));
      const count = async () => (await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from publications where created_by = ${u.id}`))[0].n;
      const third = await create(u.h, internetBody({ title: 'Третья', text: longText(3300, 'Третья статья об очереди проверок') }));
      expect(third.statusCode, third.body).toBe(429);
      expect(third.json().message).toBe(PublicationMessages.tooManyChecks(2));
      expect(await count()).toBe(2);
      // Editing the text of one already waiting adds no check.
      const edit = await t.inject({
        method: 'PUT',
        url: `/api/publication/${first.id}`,
        headers: u.h,
        payload: internetBody({ service_id: undefined, text: longText(3400, 'Первая статья об очереди проверок') }),
      });
      expect(edit.statusCode, edit.body).toBe(200);
      // An operator may still submit for the user.
      const byOperator = await create(
        operator,
        internetBody({ title: 'От оператора', user_id: u.id, text: longText(3300, 'Статья оператора об очереди проверок') }),
      );
      expect(byOperator.statusCode, byOperator.body).toBe(200);
      // Once the checks ran, the user may submit again.
      await t.app.jobs.runDue();
      expect((await create(u.h, internetBody({ title: 'Третья', text: longText(3300, 'Третья статья об очереди проверок') }))).statusCode).toBe(200);
    } finally {
      limits.pendingPerUser = saved;
    }
  });
});

describe('saves while the check waits', () => {
  it('a save replaces the waiting check; too many saves of one publication while its check waits or runs answer 429, operators are not limited', async () => {
    const limits = t.app.config.uniqueness;
    const saved = { ...limits };
    limits.savesWhilePending = 2;
    try {
      const u = await person('Частосохранова');
      const p = await created(u.h, internetBody({ text: longText(3300, 'Статья которую часто сохраняют') }));
      const openJobs = async () =>
        (
          await rows<{ n: number }>(
            t.database.db,
            sql`select count(*)::int as n from jobs where name = 'check-publication-uniqueness' and unique_key = ${`publication:${p.id}`} and done_at is null`,
          )
        )[0].n;
      expect(await openJobs()).toBe(1);
      const save = (h: Record<string, string>, n: number) =>
        t.inject({
          method: 'PUT',
          url: `/api/publication/${p.id}`,
          headers: h,
          payload: internetBody({ service_id: undefined, text: longText(3300 + n, `Статья часто сохраняют правка${'абвгдеж'[n]}`) }),
        });
      for (const n of [1, 2]) {
        const res = await save(u.h, n);
        expect(res.statusCode, res.body).toBe(200);
      }
      // The saves replaced the waiting check instead of adding one.
      expect(await openJobs()).toBe(1);
      const refused = await save(u.h, 3);
      expect(refused.statusCode, refused.body).toBe(429);
      expect(refused.json().message).toBe(PublicationMessages.savedTooOftenWhileChecked);
      // A refusal repeated within the window is not counted (written) again: a loop of refused saves
      // costs the database no write per try (issue 29).
      const counted = async () =>
        (await rows<{ n: number }>(t.database.db, sql`select failures as n from login_failures where key = ${`publication-save:${u.id}:${p.id}`}`))[0].n;
      expect(await counted()).toBe(3);
      expect((await save(u.h, 3)).statusCode).toBe(429);
      expect((await save(u.h, 3)).statusCode).toBe(429);
      expect(await counted()).toBe(3);
      // Refused before its body is read (a refused 480 000-character save costs nothing to parse):
      // a body that is not even JSON gets the same 429, not the parser's 400.
      const unread = await t.inject({
        method: 'PUT',
        url: `/api/publication/${p.id}`,
        headers: { ...u.h, 'content-type': 'application/json' },
        payload: '{"text": "<p>не дочитано',
      });
      expect(unread.statusCode, unread.body).toBe(429);
      const [kept] = await rows<{ text: string }>(t.database.db, sql`select text from publications where id = ${p.id}`);
      expect(kept.text).toContain('правкав'); // the second save's text (в), not the refused third's
      // The same through the form's POST ?_method=PUT, and while the check runs.
      await t.database.db.execute(
        sql`update jobs set locked_until = now() + interval '1 minute' where name = 'check-publication-uniqueness' and unique_key = ${`publication:${p.id}`} and done_at is null`,
      );
      const viaForm = await t.inject({
        method: 'POST',
        url: `/api/publication/${p.id}?_method=PUT`,
        headers: u.h,
        payload: internetBody({ service_id: undefined, text: longText(3304, 'Статья часто сохраняют правкад') }),
      });
      expect(viaForm.statusCode, viaForm.body).toBe(429);
      // An operator's edit is not limited.
      expect((await save(operator, 5)).statusCode).toBe(200);
      await t.database.db.execute(
        sql`update jobs set locked_until = null where name = 'check-publication-uniqueness' and unique_key = ${`publication:${p.id}`} and done_at is null`,
      );
      // Once the check is done, the saves used up stay refused until their window (a minute) ends,
      // without reading anything; then the author saves again (and the new check is scheduled).
      await t.app.jobs.runDue();
      expect(await openJobs()).toBe(0);
      expect((await save(u.h, 6)).statusCode).toBe(429);
      expect(await counted()).toBe(3);
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + limits.saveWindowMinutes * 60_000 + 1000 });
      const again = await save(u.h, 6).finally(() => vi.useRealTimers());
      expect(again.statusCode, again.body).toBe(200);
      expect(await openJobs()).toBe(1);
    } finally {
      Object.assign(limits, saved);
    }
  });

  it('a long saved text is cleaned in the worker pool, and in process when the pool is busy, with the same result (issue 29)', async () => {
    const u = await person('Чистописцева');
    const html = `<p onclick="x()">${longText(IN_PROCESS_CLEAN_MAX + 500, 'Чистый текст без скриптов').slice(3)}<script>alert(1)</script>`;
    const clean = vi.spyOn(t.app.uniqueness, 'clean');
    try {
      const p = await created(u.h, internetBody({ text: html }));
      expect(clean).toHaveBeenCalledWith(html);
      const stored = async () => (await rows<{ text: string }>(t.database.db, sql`select text from publications where id = ${p.id}`))[0].text;
      expect(await stored()).toBe(sanitizeRichHtml(html));
      clean.mockRejectedValue(new PoolBusyError());
      const edited = `${html}<p>Дописанный абзац</p>`;
      const res = await t.inject({
        method: 'PUT',
        url: `/api/publication/${p.id}`,
        headers: u.h,
        payload: internetBody({ service_id: undefined, text: edited }),
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(clean).toHaveBeenLastCalledWith(edited);
      expect(await stored()).toBe(sanitizeRichHtml(edited));
    } finally {
      clean.mockRestore();
    }
  });

  it('a short saved text is cleaned on the request thread, not queued behind the checks in the pool (issue 29)', async () => {
    const u = await person('Краткова');
    const html = `<p onclick="x()">${longText(3300, 'Короткий текст без скриптов').slice(3)}<script>alert(1)</script>`;
    expect(html.length).toBeLessThanOrEqual(IN_PROCESS_CLEAN_MAX);
    const clean = vi.spyOn(t.app.uniqueness, 'clean');
    try {
      const p = await created(u.h, internetBody({ text: html }));
      expect(clean).not.toHaveBeenCalled();
      const [stored] = await rows<{ text: string }>(t.database.db, sql`select text from publications where id = ${p.id}`);
      expect(stored.text).toBe(sanitizeRichHtml(html));
    } finally {
      clean.mockRestore();
    }
  });

  it("the user's limit of waiting checks applies to an edit of a publication that already waits", async () => {
    const limits = t.app.config.uniqueness;
    const saved = { ...limits };
    limits.pendingPerUser = 1;
    try {
      const u = await person('Ожидалова');
      const first = await created(u.h, internetBody({ text: longText(3300, 'Первая статья в ожидании проверки') }));
      const byOperator = await create(
        operator,
        internetBody({ title: 'От оператора', user_id: u.id, text: longText(3300, 'Статья оператора в ожидании проверки') }),
      );
      expect(byOperator.statusCode, byOperator.body).toBe(200);
      const edit = await t.inject({
        method: 'PUT',
        url: `/api/publication/${first.id}`,
        headers: u.h,
        payload: internetBody({ service_id: undefined, text: longText(3400, 'Первая статья в ожидании проверки правка') }),
      });
      expect(edit.statusCode, edit.body).toBe(429);
      expect(edit.json().message).toBe(PublicationMessages.tooManyChecks(1));
    } finally {
      Object.assign(limits, saved);
    }
  });
});

describe('editing', () => {
  it('the creator edits in rework (back to pending, check scheduled), not once approved; co-authors only read', async () => {
    const u = await person('Правкина');
    const co = await person('Сорправкина');
    const p = await created(u.h, internetBody({ authors_num: 2, authors: [{ user_id: co.id, fio: 'Сорправкина' }] }));
    expect((await accept(co.h, p.id)).statusCode).toBe(200);
    await act(p.id, 'decline', { manager_comment: 'Сократите введение' });
    const edit = (h: Record<string, string>, extra: Record<string, unknown> = {}) =>
      t.inject({
        method: 'POST',
        url: `/api/publication/${p.id}?_method=PUT`,
        headers: h,
        payload: internetBody({ service_id: undefined, title: 'Исправленная статья', authors_num: 2, ...extra }),
      });
    expect((await edit(co.h)).statusCode).toBe(403);
    const res = await edit(u.h, { text: longText(3300, 'Исправленный текст статьи учителя') });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: PublicationMessages.saved,
      info: PublicationMessages.willBeChecked,
      data: { status: 1, title: 'Исправленная статья' },
    });
    // Co-authors kept when the form does not send them.
    expect(res.json().data.authors).toHaveLength(2);
    await act(p.id, 'accept');
    const late = await edit(u.h);
    expect(late.statusCode).toBe(422);
    expect(late.json().message).toBe(PublicationMessages.notEditable);
    // Operators edit at any status without moving it.
    const op = await edit(operator, { title: 'Правка оператора' });
    expect(op.json().data).toMatchObject({ status: 2, title: 'Правка оператора' });
    const stranger = await person('Чужая');
    expect((await edit(stranger.h)).statusCode).toBe(404);
  });

  it('the scheduled check runs as a job and stores its result, and again after an edit', async () => {
    const u = await person('Джобова');
    const p = await created(u.h, internetBody({ text: longText(3400, 'Экологическое воспитание через исследовательские проекты') }));
    await t.app.jobs.runDue();
    const first = (await t.inject({ method: 'GET', url: `/api/publication/${p.id}`, headers: operator })).json().data as Publication;
    expect(first.uniqueness).not.toBeNull();
    expect(first.uniqueness_checked_at).not.toBeNull();
    const edited = await t.inject({
      method: 'PUT',
      url: `/api/publication/${p.id}`,
      headers: u.h,
      payload: internetBody({ service_id: undefined, text: longText(3500, 'Экологическое воспитание через исследовательские проекты') }),
    });
    expect(edited.json().info).toBe(PublicationMessages.willBeChecked);
    const [{ n }] = await rows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from jobs where name = 'check-publication-uniqueness' and unique_key = ${`publication:${p.id}`} and done_at is null`,
    );
    expect(n).toBe(1);
    // The next check waits the text's own delay after the last one (recheckDelaySeconds); here it has passed.
    await t.database.db.execute(sql`update jobs set run_at = now() where unique_key = ${`publication:${p.id}`} and done_at is null`);
    await t.app.jobs.runDue();
    const second = (await t.inject({ method: 'GET', url: `/api/publication/${p.id}`, headers: operator })).json().data as Publication;
    expect(new Date(second.uniqueness_checked_at!).getTime()).toBeGreaterThan(new Date(first.uniqueness_checked_at!).getTime());
  });

  it('an edited text is checked again no sooner than its length allows after its last check', async () => {
    // A check costs in proportion to the text: a 480 000-character one waits a minute, a short one under a second.
    expect(recheckDelaySeconds(480_000)).toBe(60);
    expect(recheckDelaySeconds(4_000_000)).toBe(60);
    expect(recheckDelaySeconds(4000)).toBeLessThan(1);
    const u = await person('Повторова');
    const p = await created(u.h, internetBody({ text: longText(30_000, 'Длинный текст статьи для повторной проверки') }));
    const job = async () =>
      (
        await rows<{ run_at: Date | string; done: boolean }>(
          t.database.db,
          sql`select run_at, done_at is not null as done from jobs where unique_key = ${`publication:${p.id}`} order by id desc limit 1`,
        )
      )[0];
    // The first check is due at once.
    expect(new Date((await job()).run_at).getTime()).toBeLessThanOrEqual(Date.now());
    await t.app.jobs.runDue();
    expect((await job()).done).toBe(true);
    const edited = await t.inject({
      method: 'PUT',
      url: `/api/publication/${p.id}`,
      headers: u.h,
      payload: internetBody({ service_id: undefined, text: longText(30_000, 'Исправленный длинный текст статьи учителя') }),
    });
    expect(edited.json().info).toBe(PublicationMessages.willBeChecked);
    const [pub] = await rows<{ checked_at: Date | string; length: number }>(
      t.database.db,
      sql`select uniqueness_checked_at as checked_at, text_length as length from publications where id = ${p.id}`,
    );
    const delayMs = recheckDelaySeconds(pub.length) * 1000;
    expect(delayMs).toBeGreaterThan(3000);
    const next = await job();
    expect(next.done).toBe(false);
    expect(Math.abs(new Date(next.run_at).getTime() - (new Date(pub.checked_at).getTime() + delayMs))).toBeLessThanOrEqual(1);
    // Not due yet: the runner leaves it, and the cabinet shows the check as queued.
    await t.app.jobs.runDue();
    expect((await job()).done).toBe(false);
    const shown = (await t.inject({ method: 'GET', url: `/api/publication/${p.id}`, headers: u.h })).json().data as Publication;
    expect(shown.uniqueness_state).toBe('queued');
    expect(shown.uniqueness_checked_at).toBe(new Date(pub.checked_at).toISOString());
  });

  it('a save that keeps the text neither rewrites, logs nor checks it again; a new text is logged by its beginning and length', async () => {
    const u = await person('Дайджестова');
    const textA = longText(3300, 'Сохранённый текст без изменений статьи');
    const p = await created(u.h, internetBody({ text: textA }));
    await t.app.jobs.runDue();
    const save = (extra: Record<string, unknown>) =>
      t.inject({ method: 'PUT', url: `/api/publication/${p.id}`, headers: u.h, payload: internetBody({ service_id: undefined, ...extra }) });
    const lastDiff = async () =>
      (
        await rows<{ diff: Record<string, { old: unknown; new: unknown }> }>(
          t.database.db,
          sql`select diff from change_logs where type = 'publication' and entity_id = ${p.id} order by id desc limit 1`,
        )
      )[0].diff;
    const pendingChecks = async () =>
      (
        await rows<{ n: number }>(
          t.database.db,
          sql`select count(*)::int as n from jobs where name = 'check-publication-uniqueness' and unique_key = ${`publication:${p.id}`} and done_at is null`,
        )
      )[0].n;

    const same = await save({ text: textA, title: 'Новое название' });
    expect(same.statusCode, same.body).toBe(200);
    expect(same.json().info).toBeNull();
    expect(await pendingChecks()).toBe(0);
    const sameDiff = await lastDiff();
    expect(sameDiff.title).toEqual({ old: 'Игровые технологии на уроках математики', new: 'Новое название' });
    expect(sameDiff).not.toHaveProperty('text');
    // The answer carries the stored text, as GET does.
    const got = (await t.inject({ method: 'GET', url: `/api/publication/${p.id}`, headers: u.h })).json().data as Publication;
    expect(same.json().data).toEqual(got);

    const textB = longText(3400, 'Совсем другой текст статьи учителя');
    const changed = await save({ text: textB, title: 'Новое название' });
    expect(changed.json().info).toBe(PublicationMessages.willBeChecked);
    expect(await pendingChecks()).toBe(1);
    expect((await lastDiff()).text).toEqual({ old: loggedLongText(sanitizeRichHtml(textA)), new: loggedLongText(sanitizeRichHtml(textB)) });
    const after = (await t.inject({ method: 'GET', url: `/api/publication/${p.id}`, headers: u.h })).json().data as Publication;
    expect(after.text).toBe(sanitizeRichHtml(textB));
    expect(changed.json().data).toEqual(after);
  });

  it('a new number of authors reprices the unpaid entry', async () => {
    const u = await person('Ценова');
    const p = await created(u.h);
    const res = await t.inject({
      method: 'PUT',
      url: `/api/publication/${p.id}`,
      headers: u.h,
      payload: internetBody({ service_id: undefined, authors_num: 2, authors: [{ fio: 'Гостева Ольга' }] }),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({ price: 1500, entry: { price: 1500 } });
  });

  it('an operator moves a publication to another subtype: the entry follows, the new rules apply', async () => {
    const u = await person('Переносова');
    const p = await created(u.h);
    const body = internetBody({ service_id: journalServiceId, type: undefined, release_id: journalRelease, text: '<p>Короткий текст для журнала</p>' });
    const res = await t.inject({ method: 'PUT', url: `/api/publication/${p.id}`, headers: operator, payload: body });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.file).toEqual([PublicationMessages.attachFile]);
    const form = multipart([
      ...Object.entries(body)
        .filter(([, v]) => v !== undefined)
        .map(([field, v]) => ({ field, content: String(v) })),
      { field: 'file', filename: 'a.pdf', content: PDF, type: 'application/pdf' },
    ]);
    const moved = await t.inject({
      method: 'POST',
      url: `/api/publication/${p.id}?_method=PUT`,
      headers: { ...operator, ...form.headers },
      payload: form.payload,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().message).toBe(PublicationMessages.typeAndReleaseUpdated);
    expect(moved.json().data).toMatchObject({
      service: { id: journalServiceId, dict_subtype_id: 4 },
      release_id: journalRelease,
      price: 2000,
      entry: { price: 2000 },
    });
    // A user cannot move it.
    const mine = await created(u.h);
    const userTry = await t.inject({
      method: 'PUT',
      url: `/api/publication/${mine.id}`,
      headers: u.h,
      payload: internetBody({ service_id: journalServiceId }),
    });
    expect(userTry.json().data.service.id).toBe(internetServiceId);
  });

  it('refuses additional files on update', async () => {
    const u = await person('Допфайлова');
    const p = await created(u.h);
    const body = multipart([
      ...Object.entries(internetBody({ service_id: undefined }))
        .filter(([, v]) => v !== undefined)
        .map(([field, v]) => ({ field, content: String(v) })),
      { field: 'additionalFiles[]', filename: 'b.pdf', content: PDF, type: 'application/pdf' },
    ]);
    const res = await t.inject({ method: 'POST', url: `/api/publication/${p.id}?_method=PUT`, headers: { ...u.h, ...body.headers }, payload: body.payload });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.additionalFiles).toEqual([PublicationMessages.additionalFilesOnCreate]);
  });
});

describe('releases, site and counts', () => {
  it('adds checked publications to a release of their subtype', async () => {
    const u = await person('Сборникова');
    const journal = multipart([
      { field: 'service_id', content: String(journalServiceId) },
      { field: 'title', content: 'В выпуск' },
      { field: 'dict_category_id', content: '1' },
      { field: 'release_id', content: String(journalRelease) },
      { field: 'authors_num', content: '1' },
      { field: 'file', filename: 'a.pdf', content: PDF, type: 'application/pdf' },
    ]);
    const j = (await t.inject({ method: 'POST', url: '/api/publication', headers: { ...u.h, ...journal.headers }, payload: journal.payload })).json()
      .data as Publication;
    const [second] = await t.database.db
      .insert(publicationReleases)
      .values({ title: 'Выпуск № 2', dict_service_subtype_id: 4 })
      .returning({ id: publicationReleases.id });
    const res = await t.inject({
      method: 'POST',
      url: '/api/publication/add-to-release',
      headers: operator,
      payload: { ids: [j.id], release_id: second.id, confirm_unpaid: true },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(PublicationMessages.selectedUpdated);
    expect((await t.inject({ method: 'GET', url: `/api/publication/${j.id}`, headers: u.h })).json().data.release).toEqual({
      id: second.id,
      title: 'Выпуск № 2',
    });
    const internet = await created(u.h);
    const mixed = await t.inject({
      method: 'POST',
      url: '/api/publication/add-to-release',
      headers: operator,
      payload: { ids: [j.id, internet.id], release_id: second.id },
    });
    expect(mixed.json().message).toBe(PublicationMessages.releaseNotOfSubtype);
    const unknown = await t.inject({
      method: 'POST',
      url: '/api/publication/add-to-release',
      headers: operator,
      payload: { ids: [2_000_000_000], release_id: second.id },
    });
    expect(unknown.json().message).toBe(PublicationMessages.unknownPublications);
    const empty = await t.inject({ method: 'POST', url: '/api/publication/add-to-release', headers: operator, payload: { ids: [], release_id: second.id } });
    expect(empty.statusCode).toBe(422);
    const filtered = await t.inject({ method: 'GET', url: `/api/publication?release_id=${second.id}`, headers: operator });
    expect(filtered.json().data.map((x: Publication) => x.id)).toEqual([j.id]);
    const without = await t.inject({ method: 'GET', url: `/api/publication?isWithoutRelease=1&userId=${u.id}`, headers: operator });
    expect(without.json().data.map((x: Publication) => x.id)).toEqual([internet.id]);
    const byNumber = await t.inject({ method: 'GET', url: `/api/publication?entryNumber=${j.entry!.number}`, headers: operator });
    expect(byNumber.json().data.map((x: Publication) => x.id)).toEqual([j.id]);
  });

  it("publishes approved internet publications to the journal's site, then status 4 with the address", async () => {
    // Whatever earlier tests approved is published too; count only ours.
    const u = await person('Сайтова');
    const p = await created(u.h, internetBody({ title: 'Статья для сайта' }));
    await act(p.id, 'accept');
    const res = await t.inject({ method: 'POST', url: '/api/publication/publish-accepted', headers: operator, payload: { include_unpaid: true } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().published).toContain(p.id);
    const view = (await t.inject({ method: 'GET', url: `/api/publication/${p.id}`, headers: u.h })).json().data as Publication;
    expect(view.status).toBe(PublicationStatus.published);
    expect(view.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/index\.php\?option=com_content&view=article&id=\d+&catid=7$/);
    const article = [...joomla.articles.values()].find((a) => a.title === 'Статья для сайта');
    expect(article).toMatchObject({ catid: 7, alias: `publication-${p.id}`, state: 1 });
    expect(view.url?.startsWith(`${joomla.url}/`)).toBe(true);
    // The main site (services) gets nothing.
    expect(mainSite.requests).toHaveLength(0);
    expect((await eventsOf(p.id)).map((e) => e.event_id)).toEqual([EventId.publicationApproved, EventId.publicationPublished]);
    const nothing = await t.inject({ method: 'POST', url: '/api/publication/publish-accepted', headers: operator, payload: { include_unpaid: true } });
    expect(nothing.statusCode).toBe(422);
    expect(nothing.json().message).toBe(PublicationMessages.nothingToPublish);
  });

  it("cuts a long title to the site's 255 characters in the article and keeps the full title here", async () => {
    const u = await person('Длиннова');
    const title = `${'Формирование функциональной грамотности '.repeat(12)}`.trim().slice(0, 480);
    const p = await created(u.h, internetBody({ title }));
    await act(p.id, 'accept');
    const res = await t.inject({ method: 'POST', url: '/api/publication/publish-accepted', headers: operator, payload: { include_unpaid: true } });
    expect(res.statusCode, res.body).toBe(200);
    const article = [...joomla.articles.values()].find((a) => a.alias === `publication-${p.id}`)!;
    expect(Array.from(article.title)).toHaveLength(255);
    expect(article.title.endsWith('…')).toBe(true);
    expect(title.startsWith(article.title.slice(0, -1))).toBe(true);
    const view = (await t.inject({ method: 'GET', url: `/api/publication/${p.id}`, headers: u.h })).json().data as Publication;
    expect(view).toMatchObject({ title, status: PublicationStatus.published });
  });

  it("refuses a rubric whose category the journal's site does not have, naming the rubric; the others are published", async () => {
    const u = await person('Рубрикова');
    const bad = await created(u.h, internetBody({ title: 'Рубрика с чужой категорией', dict_category_id: 3 }));
    const good = await created(u.h, internetBody({ title: 'Рубрика в порядке' }));
    await act(bad.id, 'accept');
    await act(good.id, 'accept');
    const [rubric] = await rows<{ fdv: string }>(t.database.db, sql`select fdv from dict_publication_categories where id = 3`);
    await t.database.db.execute(sql`update dict_publication_categories set joomla_category_id = 777 where id = 3`);
    const categories = joomla.categories.length;
    try {
      const res = await t.inject({ method: 'POST', url: '/api/publication/publish-accepted', headers: operator, payload: { include_unpaid: true } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().message).toBe(PublicationMessages.cmsFailed);
      expect(res.json().published).toEqual([good.id]);
      expect(res.json().failed).toEqual([{ id: bad.id, message: PublicationMessages.rubricUnknownCategory(rubric.fdv, 777) }]);
      expect(res.json().failed[0].message).toBe(
        `На сайте журнала нет категории 777, указанной у рубрики «${rubric.fdv}»: выберите в рубрике существующую категорию сайта`,
      );
      expect(await statusOf(bad.id)).toBe(PublicationStatus.approved);
      expect([...joomla.articles.values()].some((a) => a.alias === `publication-${bad.id}`)).toBe(false);
      expect(joomla.categories).toHaveLength(categories);
    } finally {
      await t.database.db.execute(sql`update dict_publication_categories set joomla_category_id = 7 where id = 3`);
    }
    // Fixed in the rubric: published on the next press.
    const again = await t.inject({ method: 'POST', url: '/api/publication/publish-accepted', headers: operator, payload: { include_unpaid: true } });
    expect(again.json().published).toEqual([bad.id]);
  });

  it('adopts the article a lost answer left on the site instead of failing for ever on its alias', async () => {
    const u = await person('Потерянова');
    const p = await created(u.h, internetBody({ title: 'Ответ сайта потерян' }));
    await act(p.id, 'accept');
    joomla.loseCreateAnswers = 1;
    const lost = await t.inject({ method: 'POST', url: '/api/publication/publish-accepted', headers: operator, payload: { include_unpaid: true } });
    expect(lost.statusCode).toBe(422);
    expect(lost.json().failed[0].message).toMatch(/^Сайт недоступен/);
    expect(await statusOf(p.id)).toBe(PublicationStatus.approved);
    const made = [...joomla.articles.values()].filter((a) => a.alias === `publication-${p.id}`);
    expect(made).toHaveLength(1);

    const again = await t.inject({ method: 'POST', url: '/api/publication/publish-accepted', headers: operator, payload: { include_unpaid: true } });
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().published).toEqual([p.id]);
    expect([...joomla.articles.values()].filter((a) => a.alias === `publication-${p.id}`)).toHaveLength(1);
    const view = (await t.inject({ method: 'GET', url: `/api/publication/${p.id}`, headers: u.h })).json().data as Publication;
    expect(view.url).toBe(`${joomla.url}/index.php?option=com_content&view=article&id=${made[0].id}&catid=7`);
  });

  it('the site down leaves them approved', async () => {
    const u = await person('Упавшая');
    const p = await created(u.h);
    await act(p.id, 'accept');
    joomla.mode = 'down';
    try {
      const res = await t.inject({ method: 'POST', url: '/api/publication/publish-accepted', headers: operator, payload: { include_unpaid: true } });
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toBe(PublicationMessages.cmsFailed);
      expect(await statusOf(p.id)).toBe(PublicationStatus.approved);
    } finally {
      joomla.mode = 'ok';
    }
  });

  it('puts unpaid publications into a release only with confirm_unpaid, counting them', async () => {
    const u = await person('Выпускова');
    const make = (title: string) => created(u.h, internetBody({ title }));
    const [a, b, c] = [await make('Первая'), await make('Вторая'), await make('Третья')];
    await pay(c);
    const [target] = await t.database.db
      .insert(publicationReleases)
      .values({ title: 'Сборник без типа', dict_service_subtype_id: null })
      .returning({ id: publicationReleases.id });
    const refused = await post('/api/publication/add-to-release', { ids: [a.id, b.id, c.id], release_id: target.id });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toEqual({
      message: PublicationMessages.confirmUnpaidRelease(2),
      errors: { confirm_unpaid: [PublicationMessages.confirmUnpaidRelease(2)] },
    });
    const [{ n }] = await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from publications where release_id = ${target.id}`);
    expect(n).toBe(0);
    // A paid one alone goes in without a question; the unpaid ones with the confirmation.
    expect((await post('/api/publication/add-to-release', { ids: [c.id], release_id: target.id })).statusCode).toBe(200);
    const ok = await post('/api/publication/add-to-release', { ids: [a.id, b.id], release_id: target.id, confirm_unpaid: true });
    expect(ok.statusCode, ok.body).toBe(200);
    const [{ m }] = await rows<{ m: number }>(t.database.db, sql`select count(*)::int as m from publications where release_id = ${target.id}`);
    expect(m).toBe(3);
  });

  it('«Опубликовать одобренные» skips unpaid ones and says how many; include_unpaid publishes them too', async () => {
    const u = await person('Пропускова');
    const paid = await created(u.h, internetBody({ title: 'Оплачена и одобрена' }));
    await pay(paid);
    const unpaid1 = await created(u.h, internetBody({ title: 'Не оплачена 1' }));
    const unpaid2 = await created(u.h, internetBody({ title: 'Не оплачена 2' }));
    for (const p of [paid, unpaid1, unpaid2]) await act(p.id, 'accept');
    const res = await post('/api/publication/publish-accepted');
    expect(res.statusCode, res.body).toBe(200);
    const answer = res.json();
    expect(answer.published).toContain(paid.id);
    expect(answer.skipped_unpaid).toEqual(expect.arrayContaining([unpaid1.id, unpaid2.id]));
    expect(answer.published).not.toContain(unpaid1.id);
    expect(answer.message).toBe(`${PublicationMessages.acceptedPublished} ${PublicationMessages.skippedUnpaid(answer.skipped_unpaid.length)}`);
    expect(answer.message).toContain(`Пропущено неоплаченных: ${answer.skipped_unpaid.length}`);
    expect(await statusOf(unpaid1.id)).toBe(PublicationStatus.approved);
    expect(await statusOf(paid.id)).toBe(PublicationStatus.published);
    // Nothing paid left: a 422 that still counts the skipped ones.
    const nothing = await post('/api/publication/publish-accepted');
    expect(nothing.statusCode).toBe(422);
    expect(nothing.json().message).toBe(PublicationMessages.nothingPaidToPublish(answer.skipped_unpaid.length));
    const all = await post('/api/publication/publish-accepted', { include_unpaid: true });
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json()).toMatchObject({ message: PublicationMessages.acceptedPublished, skipped_unpaid: [] });
    expect(all.json().published).toEqual(expect.arrayContaining([unpaid1.id, unpaid2.id]));
  });

  it('counts pending publications for the badge', async () => {
    const before = (await t.inject({ method: 'GET', url: '/api/publication/count-pending', headers: operator })).json().count as number;
    const u = await person('Счётова');
    await created(u.h);
    const after = (await t.inject({ method: 'GET', url: '/api/publication/count-pending', headers: operator })).json().count as number;
    expect(after).toBe(before + 1);
    const stats = (await t.inject({ method: 'GET', url: '/api/publication/statistics', headers: operator })).json() as Record<string, number>;
    expect(Object.values(stats).reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
  });
});

describe('printing a publication entry', () => {
  it('the certificate is offered when the entry is paid and the publication approved or published', async () => {
    const [tpl] = await rows<{ id: number }>(
      t.database.db,
      sql`insert into templates (title, dict_type_id) values ('Свидетельство о публикации', 1) returning id`,
    );
    await t.database.db.execute(sql`update services set template_certificate_id = ${tpl.id} where id = ${internetServiceId}`);
    try {
      const u = await person('Печатова');
      const p = await created(u.h);
      const canPrint = async () =>
        (await t.inject({ method: 'GET', url: `/api/entry/${p.entry!.id}`, headers: u.h })).json().data.can_print_certificate as boolean;
      expect(await canPrint()).toBe(false);
      await t.database.db.execute(sql`update entries set status = 2 where id = ${p.entry!.id}`);
      expect(await canPrint()).toBe(false);
      await act(p.id, 'accept');
      expect(await canPrint()).toBe(true);
      await act(p.id, 'reject', { manager_comment: 'Плагиат' });
      expect(await canPrint()).toBe(false);
    } finally {
      await t.database.db.execute(sql`update services set template_certificate_id = null where id = ${internetServiceId}`);
    }
  });
});

describe('the site switched off', () => {
  it("publish-accepted answers a clear 422 and changes nothing, also when only the main site is set (publications go to the journal's)", async () => {
    const onlyMain = await createTestApp({ cms: { site: { url: mainSite.url, token: mainSite.token }, journal: null } });
    try {
      const op = await onlyMain.loginAs(await onlyMain.createUser({ role: 1 }));
      const res = await onlyMain.inject({ method: 'POST', url: '/api/publication/publish-accepted', headers: op });
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toBe(PublicationMessages.cmsOff);
      expect(mainSite.requests).toHaveLength(0);
    } finally {
      await onlyMain.close();
    }
    const off = await createTestApp({ cms: { site: null, journal: null } });
    try {
      const op = await off.loginAs(await off.createUser({ role: 1 }));
      const res = await off.inject({ method: 'POST', url: '/api/publication/publish-accepted', headers: op });
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toBe(PublicationMessages.cmsOff);
    } finally {
      await off.close();
    }
  });
});
