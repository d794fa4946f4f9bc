import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Messages } from '@edu/domain/common/messages';
import { serviceLeadings, serviceProfiles } from '../../db/schema/index.ts';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { makeService } from '../../../test/fixtures.ts';

let t: TestApp;
let user: Record<string, string>;
let operator: Record<string, string>;
const day = 86_400_000;
// A type with no seeded demo services, so counts are ours alone.
const TYPE = 7;

beforeAll(async () => {
  t = await createTestApp();
  user = await t.loginAs(await t.createUser());
  operator = await t.loginAs(await t.createUser({ role: 1 }));
});
afterAll(() => t.close());

const list = (headers: Record<string, string>, query: string) => t.inject({ method: 'GET', url: `/api/service?dict_type_id=${TYPE}&${query}`, headers });

describe('service list', () => {
  it('hides hidden and deleted services from users, not from operators who ask', async () => {
    await makeService(t.database.db, { dict_type_id: TYPE, title: 'Видимая' });
    await makeService(t.database.db, { dict_type_id: TYPE, title: 'Скрытая', is_visible: false });
    await makeService(t.database.db, { dict_type_id: TYPE, title: 'Удалённая', deleted_at: new Date() });
    const forUser = (await list(user, 'is_visible=0')).json();
    expect(forUser.data.map((s: { title: string }) => s.title)).toEqual(['Видимая']);
    const forOperator = (await list(operator, '')).json();
    expect(forOperator.data.map((s: { title: string }) => s.title).sort()).toEqual(['Видимая', 'Скрытая']);
    // An operator asking for hidden ones gets only those; for visible ones only those.
    for (const hidden of ['is_visible=0', 'is_visible=false'])
      expect((await list(operator, hidden)).json().data.map((s: { title: string }) => s.title)).toEqual(['Скрытая']);
    for (const shown of ['is_visible=1', 'is_visible=true'])
      expect((await list(operator, shown)).json().data.map((s: { title: string }) => s.title)).toEqual(['Видимая']);
    const bad = await list(operator, 'is_visible=maybe');
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors.is_visible).toEqual(['Ожидается да или нет']);
  });

  it('filters by subtype, profile, leading, past/upcoming and title, with computed fields', async () => {
    const past = await makeService(t.database.db, {
      dict_type_id: TYPE,
      dict_subtype_id: null,
      title: 'Прошедший семинар',
      begda: new Date(Date.now() - 10 * day),
      endda: new Date(Date.now() - 9 * day),
    });
    const upcoming = await makeService(t.database.db, {
      dict_type_id: TYPE,
      title: 'Будущий семинар',
      sections: ['Секция А', 'Секция Б'],
      max_participants: 5,
    });
    await t.database.db.insert(serviceProfiles).values({ service_id: upcoming.id, dict_profile_id: 4 });
    await t.database.db.insert(serviceLeadings).values({ service_id: past.id, leading_id: 2 });

    const titles = async (q: string) => (await list(user, q)).json().data.map((s: { title: string }) => s.title);
    expect(await titles('past=1')).toContain('Прошедший семинар');
    expect(await titles('past=1')).not.toContain('Будущий семинар');
    expect(await titles('past=0')).toContain('Будущий семинар');
    expect(await titles('past=0')).not.toContain('Прошедший семинар');
    // A flag like every other (issue 19): true/false too, anything else named.
    expect(await titles('past=true')).toEqual(await titles('past=1'));
    expect(await titles('past=false')).toEqual(await titles('past=0'));
    expect((await list(user, 'past=maybe')).json().errors.past).toEqual(['Ожидается да или нет']);
    expect(await titles('profile=4')).toEqual(['Будущий семинар']);
    expect(await titles('leading=2')).toEqual(['Прошедший семинар']);
    expect(await titles(`title=${encodeURIComponent('БУДУЩИЙ')}`)).toEqual(['Будущий семинар']);

    const one = (await t.inject({ method: 'GET', url: `/api/service/${upcoming.id}`, headers: user })).json().data;
    expect(one.sections).toHaveLength(2);
    expect(one.sections[0]).toMatchObject({ title: 'Секция А', participants_num: 0, service_id: upcoming.id });
    expect(one.interval_formatted).toMatch(/^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}–\d{2}:\d{2}$/);
    expect(one.begda).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(one.date_type_icon).toBeTruthy();
    expect(one.profiles.map((p: { id: number }) => p.id)).toEqual([4]);
    expect(one.type.id).toBe(TYPE);
  });

  it('answers 404 "Услуга не найдена :(" for a hidden service asked by id', async () => {
    const hidden = await makeService(t.database.db, { dict_type_id: TYPE, is_visible: false });
    const res = await t.inject({ method: 'GET', url: `/api/service/${hidden.id}`, headers: user });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(Messages.serviceNotFound);
    expect((await t.inject({ method: 'GET', url: `/api/service/${hidden.id}`, headers: operator })).statusCode).toBe(200);
  });

  it('paginates with 15, 30 or 100 per page', async () => {
    const res = (await list(user, 'per_page=30&page=1')).json();
    expect(res.meta.per_page).toBe(30);
    expect((await list(user, 'per_page=20')).statusCode).toBe(422);
  });
});

describe('service search', () => {
  it('matches every title word case-insensitively, visible only, nearest date first', async () => {
    await makeService(t.database.db, { title: 'Олимпиада по ФИЗИКЕ для школьников', begda: new Date(Date.now() + 40 * day), endda: null });
    await makeService(t.database.db, { title: 'Физика в задачах: олимпиада', begda: new Date(Date.now() + 2 * day), endda: null });
    await makeService(t.database.db, { title: 'Олимпиада физика (скрытая)', is_visible: false });
    await makeService(t.database.db, { title: 'Химия для школьников' });
    const res = await t.inject({ method: 'POST', url: '/api/service/search', headers: user, payload: { keywords: 'физик олимпиад' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.map((s: { title: string }) => s.title)).toEqual(['Физика в задачах: олимпиада', 'Олимпиада по ФИЗИКЕ для школьников']);
    const none = await t.inject({ method: 'POST', url: '/api/service/search', headers: user, payload: { keywords: 'квантовая хромодинамика' } });
    expect(none.json().data).toEqual([]);
    expect((await t.inject({ method: 'POST', url: '/api/service/search', payload: { keywords: 'физика' } })).statusCode).toBe(401);
  });
});

describe('catalogue facets', () => {
  it('give the real highest points of each type and the leadings of visible services', async () => {
    await makeService(t.database.db, { dict_type_id: 10, points: 7 });
    await makeService(t.database.db, { dict_type_id: 10, points: 15 });
    await makeService(t.database.db, { dict_type_id: 10, points: 40, is_visible: false });
    const pub = await makeService(t.database.db, { dict_type_id: 11, points: 25, is_publication: true });
    await t.database.db.insert(serviceLeadings).values({ service_id: pub.id, leading_id: 2 });
    const res = (await t.inject({ method: 'GET', url: '/api/service/facets', headers: user })).json();
    expect(res.data.type_points['10']).toBe(15);
    // Publications are not offered as ordinary entries to users.
    expect(res.data.type_points['11']).toBeUndefined();
    const op = (await t.inject({ method: 'GET', url: '/api/service/facets', headers: operator })).json();
    expect(op.data.type_points['11']).toBe(25);
    expect(op.data.leadings.map((l: { id: number }) => l.id)).toContain(2);
  });
});
