import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '@edu/domain/common/codes';
import { Messages } from '@edu/domain/common/messages';
import { ProfileMessages } from '@edu/domain/users/profile';
import { UserMessages } from '@edu/domain/users/manager-user';
import { COUNT_CAP, totalLabel } from '@edu/domain/common/pagination';
import { entries, users } from '../../db/schema/index.ts';
import { fioCondition } from '../../platform/list-query.ts';
import { rows } from '../../platform/db.ts';
import { SECRET_MARK } from '../../platform/change-log.ts';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { makeService } from '../../../test/fixtures.ts';

let t: TestApp;
let operator: { id: number };
let op: Record<string, string>;

beforeAll(async () => {
  t = await createTestApp();
  operator = await t.createUser({ role: Role.operator, last_name: 'Операторова', first_name: 'Ольга' });
  op = await t.loginAs(operator);
});
afterAll(() => t.close());

const list = async (query: string) => {
  const res = await t.inject({ method: 'GET', url: `/api/manager/users?${query}`, headers: op });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { data: Array<Record<string, unknown>>; meta: { current_page: number; last_page: number; total: number; per_page: number } };
};
const ids = async (query: string) => (await list(query)).data.map((u) => u.id);

const valid = (over: Record<string, unknown> = {}) => ({
  last_name: 'Новикова',
  first_name: 'Анна',
  middle_name: 'Сергеевна',
  email: `novikova-${Math.random().toString(36).slice(2)}@example.com`,
  phone: `+7 (9${String(Math.floor(Math.random() * 100)).padStart(2, '0')}) ${String(Math.floor(Math.random() * 1000)).padStart(3, '0')}-${String(Math.floor(Math.random() * 100)).padStart(2, '0')}-${String(Math.floor(Math.random() * 100)).padStart(2, '0')}`,
  organization: 'Гимназия № 2',
  job_title: 'Методист',
  profiles: [1],
  ...over,
});

const logsOf = (id: number) =>
  rows<{ user_id: number | null; diff: Record<string, { old: unknown; new: unknown }> }>(
    t.database.db,
    sql`select user_id, diff from change_logs where type = 'user' and entity_id = ${id} order by id`,
  );

describe('users list filters', () => {
  let a: { id: number; phone: string; email: string };
  let b: { id: number };
  let guest: { id: number };
  let gone: { id: number };
  beforeAll(async () => {
    a = await t.createUser({
      last_name: 'Фильтрова',
      first_name: 'Дарья',
      middle_name: 'Игоревна',
      phone: '+7 (916) 555-12-34',
      email: 'daria.filter@school.example',
      profiles: [1, 2],
    });
    b = await t.createUser({ last_name: 'Фильтров', first_name: 'Игорь', is_spb: 1, profiles: [3] });
    guest = await t.createUser({ last_name: 'Фильтрова', first_name: 'Гостья', role: Role.guest });
    gone = await t.createUser({ last_name: 'Фильтров', first_name: 'Удалён', deleted_at: new Date(), profiles: [1] });
  });

  it('finds by fio words in any order, by id, by phone digits and by e-mail', async () => {
    expect(await ids('fio=Фильтров')).toEqual(expect.arrayContaining([a.id, b.id, guest.id]));
    expect(await ids('fio=Фильтров')).not.toContain(gone.id);
    expect(await ids('fio=Дарья%20Фильтрова')).toEqual([a.id]);
    expect(await ids(`id=${b.id}`)).toEqual([b.id]);
    expect(await ids('phone=5551234')).toEqual([a.id]);
    expect(await ids('phone=89165551234')).toEqual([a.id]);
    expect(await ids(`phone=${encodeURIComponent('+7 (916) 555')}`)).toContain(a.id);
    expect(await ids('email=DARIA.FILTER')).toEqual([a.id]);
  });

  it('filters by role, is_spb, profile (several, 0 = not filled) and deleted', async () => {
    expect(await ids('fio=Фильтров&role=3')).toEqual([guest.id]);
    expect(await ids('fio=Фильтров&is_spb=1')).toEqual([b.id]);
    // A flag like every other (issue 19).
    expect(await ids('fio=Фильтров&is_spb=true')).toEqual([b.id]);
    expect((await ids('fio=Фильтров&profile=2,3')).sort()).toEqual([a.id, b.id].sort());
    expect(await ids('fio=Фильтров&profile=0')).toEqual([guest.id]);
    expect((await ids('fio=Фильтров&profile=3,0')).sort()).toEqual([b.id, guest.id].sort());
    expect(await ids('fio=Фильтров&deleted=true')).toEqual([gone.id]);
    expect(await ids('fio=Фильтров&deleted=1')).toEqual([gone.id]);
  });

  it('a name alone, newest first, answers from the names kept beside the users as the full search does', async () => {
    const base = Date.parse('2026-05-01T10:00:00Z');
    const made: number[] = [];
    for (let i = 0; i < 20; i++) {
      // Two at the same instant: the id breaks the tie.
      const u = await t.createUser({ last_name: 'Датова', first_name: `Вера${i}`, created_at: new Date(base + (i === 5 ? 4 : i) * 60_000) });
      made.push(u.id);
    }
    const late = made[19];
    await t.database.db.execute(sql`update users set deleted_at = now() where id = ${late}`);
    // role=2 (all of them) takes the full search through users: the same pages, totals and order.
    for (const q of ['fio=датова', 'fio=Датова&page=2', 'fio=ДАТОВА&sort=id', 'fio=Датова&sort=created_at', 'fio=Датова&deleted=true']) {
      const fast = await list(q);
      const full = await list(`${q}&role=2`);
      expect(fast.data.map((u) => u.id)).toEqual(full.data.map((u) => u.id));
      expect(fast.meta).toEqual(full.meta);
    }
    expect((await list('fio=Датова')).meta.total).toBe(19);
    expect(await ids('fio=Датова&deleted=true')).toEqual([late]);
    // Undone deletion and a new name follow through the trigger.
    await t.database.db.execute(sql`update users set deleted_at = null, last_name = 'Новодатова' where id = ${late}`);
    expect(await ids('fio=Новодатова')).toEqual([late]);
    expect((await list('fio=Датова&deleted=true')).meta.total).toBe(0);
  });

  it('rejects unknown values with 422 and field errors', async () => {
    for (const q of ['role=7', 'per_page=20', 'profile=abc', 'is_spb=2', 'id=x', 'sort=drop;table']) {
      const res = await t.inject({ method: 'GET', url: `/api/manager/users?${q}`, headers: op });
      expect(res.statusCode, q).toBe(422);
      // Nothing is empty: the headline is the field's own message.
      expect(res.json().message, q).toBe(Object.values(res.json().errors as Record<string, string[]>).flat()[0]);
    }
  });

  it('pages 15/30/100 with meta, and shows entry count, paid count and amount due', async () => {
    const service = await makeService(t.database.db);
    await t.database.db.insert(entries).values([
      { number: 'U-1', created_by: a.id, service_id: service.id, price: 700, status: 1 },
      { number: 'U-2', created_by: a.id, service_id: service.id, price: 800.5, status: 1 },
      { number: 'U-3', created_by: a.id, service_id: service.id, price: 500, status: 2 },
      { number: 'U-4', created_by: a.id, service_id: service.id, price: 900, status: 3 },
      { number: 'U-5', created_by: a.id, service_id: service.id, price: 1000, status: 1, deleted_at: new Date() },
    ]);
    const [row] = (await list(`id=${a.id}`)).data;
    expect(row).toMatchObject({ entries_num: 4, service_count: 2, left_sum: 1500.5, fio: 'Фильтрова Дарья Игоревна', role_label: 'Пользователь' });
    expect(row).not.toHaveProperty('password');
    for (let i = 0; i < 32; i++) await t.createUser({ last_name: 'Страничкин', first_name: `Номер${i}` });
    const first = await list('fio=Страничкин');
    expect(first.meta).toEqual({ current_page: 1, last_page: 3, total: 32, per_page: 15 });
    expect(first.data).toHaveLength(15);
    const third = await list('fio=Страничкин&page=3');
    expect(third.data).toHaveLength(2);
    expect((await list('fio=Страничкин&per_page=30')).meta.last_page).toBe(2);
    expect((await list('fio=Страничкин&per_page=100')).data).toHaveLength(32);
    const sorted = (await list('fio=Страничкин&sort=id')).data.map((u) => u.id as number);
    expect(sorted).toEqual([...sorted].sort((x, y) => x - y));
    const owing = (await list('fio=Фильтров&sort=-left_sum')).data;
    expect(owing[0]).toMatchObject({ id: a.id, left_sum: 1500.5 });
  });
});

describe('create and edit', () => {
  it('creates a user with role 2 by default and writes the change log', async () => {
    const body = valid();
    const res = await t.inject({ method: 'POST', url: '/api/manager/users', headers: op, payload: body });
    expect(res.statusCode, res.body).toBe(201);
    const user = res.json().data;
    expect(res.json().message).toBe(Messages.saved);
    expect(user).toMatchObject({ role: 2, email: body.email, phone: body.phone, has_password: false, profiles: [expect.objectContaining({ id: 1 })] });
    const [log] = await logsOf(user.id);
    expect(log.user_id).toBe(operator.id);
    expect(log.diff.email).toEqual({ old: null, new: body.email });
    expect(log.diff.profiles).toEqual({ old: null, new: [1] });
  });

  it('requires names, e-mail, phone, organization, job title and a profile, field by field', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/manager/users',
      headers: op,
      payload: { last_name: ' ', first_name: '', email: 'nope', phone: '123', profiles: [] },
    });
    expect(res.statusCode).toBe(422);
    const { message, errors } = res.json();
    expect(message).toBe(Messages.required);
    expect(errors).toMatchObject({
      last_name: [Messages.fieldRequired],
      first_name: [Messages.fieldRequired],
      email: [Messages.invalidEmail],
      phone: [Messages.phoneFormat],
      organization: [Messages.fieldRequired],
      job_title: [Messages.fieldRequired],
      profiles: [ProfileMessages.chooseProfile],
    });
  });

  it('creates a guest without e-mail and phone', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/manager/users',
      headers: op,
      payload: { last_name: 'Гостев', first_name: 'Гость', role: 3, is_spb: 1, organization: 'Музей', email: 'ignored@example.com' },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({ role: 3, role_label: 'Гость', email: null, phone: null, is_spb: 1 });
    // is_spb is a flag like every other (issue 19): 'true' too.
    const asText = await t.inject({
      method: 'POST',
      url: '/api/manager/users',
      headers: op,
      payload: { last_name: 'Гостев', first_name: 'Третий', role: 3, is_spb: 'true' },
    });
    expect(asText.statusCode, asText.body).toBe(201);
    expect(asText.json().data.is_spb).toBe(1);
    // A second guest does not clash on the (hidden) e-mail.
    expect(
      (await t.inject({ method: 'POST', url: '/api/manager/users', headers: op, payload: { last_name: 'Гостев', first_name: 'Второй', role: 3 } })).statusCode,
    ).toBe(201);
  });

  it('refuses an e-mail or phone another user has (even a deleted one), also when two saves race', async () => {
    const other = await t.createUser({ deleted_at: new Date() });
    const res = await t.inject({
      method: 'POST',
      url: '/api/manager/users',
      headers: op,
      payload: valid({ email: other.email.toUpperCase(), phone: other.phone }),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toEqual({ email: [Messages.emailTaken], phone: [Messages.phoneTaken] });
    const body = valid();
    const both = await Promise.all([1, 2].map(() => t.inject({ method: 'POST', url: '/api/manager/users', headers: op, payload: body })));
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 422]);
  });

  it('edits every field, names included, sets a password (write-only) and logs the diff without its value', async () => {
    const user = await t.createUser({ profiles: [1] });
    const body = valid({
      last_name: 'Изменённая',
      first_name: 'Мария',
      middle_name: null,
      note: 'Звонить после 17:00',
      learned_from_us: 'Сайт',
      address: 'ул. Ленина, 1',
      region: 'Санкт-Петербург',
      dict_region_id: 1,
      country: 'Россия',
      postcode: '190000',
      profiles: [2, 3],
      password: 'new-secret',
    });
    const res = await t.inject({ method: 'PUT', url: `/api/manager/users/${user.id}`, headers: op, payload: body });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data).toMatchObject({
      fio: 'Изменённая Мария',
      note: 'Звонить после 17:00',
      postcode: '190000',
      dict_region_id: 1,
      has_password: true,
      profiles: [expect.objectContaining({ id: 2 }), expect.objectContaining({ id: 3 })],
    });
    expect(JSON.stringify(res.json())).not.toContain('new-secret');
    const login = await t.inject({ method: 'POST', url: '/login', payload: { email: body.email, password: 'new-secret' } });
    expect(login.statusCode).toBe(200);
    const logs = await logsOf(user.id);
    const last = logs.at(-1)!;
    expect(last.diff.password).toEqual({ old: SECRET_MARK, new: SECRET_MARK });
    expect(last.diff.last_name).toEqual({ old: 'Петров', new: 'Изменённая' });
    expect(last.diff.profiles).toEqual({ old: [1], new: [2, 3] });
    expect(last.diff).not.toHaveProperty('id');
    // A short password is refused; nothing else changes.
    const short = await t.inject({ method: 'PUT', url: `/api/manager/users/${user.id}`, headers: op, payload: { ...body, password: 'abc' } });
    expect(short.statusCode).toBe(422);
    expect(short.json().errors.password).toEqual([Messages.passwordMinLength]);
  });

  it("sets another user's password and profiles through the cabinet calls, with log rows", async () => {
    const user = await t.createUser({ profiles: [1] });
    expect(
      (
        await t.inject({
          method: 'POST',
          url: `/api/user/${user.id}/change-password`,
          headers: op,
          payload: { password: 'other-pass', password_confirmation: 'other-pass' },
        })
      ).statusCode,
    ).toBe(200);
    expect((await t.inject({ method: 'POST', url: `/api/user/store-profiles/${user.id}`, headers: op, payload: { profiles: [4] } })).statusCode).toBe(200);
    const logs = await logsOf(user.id);
    expect(logs.map((l) => Object.keys(l.diff))).toEqual([['password'], ['profiles']]);
    expect(logs.every((l) => l.user_id === operator.id)).toBe(true);
  });

  it('an operator cannot take the operator role from themselves', async () => {
    const res = await t.inject({ method: 'PUT', url: `/api/manager/users/${operator.id}`, headers: op, payload: valid({ role: 2 }) });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors.role).toBeDefined();
  });

  it('answers 404 for an unknown user', async () => {
    expect((await t.inject({ method: 'GET', url: '/api/manager/users/999999', headers: op })).statusCode).toBe(404);
    expect((await t.inject({ method: 'PUT', url: '/api/manager/users/999999', headers: op, payload: valid() })).statusCode).toBe(404);
  });
});

describe('delete and restore', () => {
  it('soft-deletes (sessions end), lists it under deleted, restores it, and logs both', async () => {
    const user = await t.createUser({ last_name: 'Удаляемый' });
    const session = await t.loginAs(user);
    const del = await t.inject({ method: 'DELETE', url: `/api/manager/users/${user.id}`, headers: op });
    expect(del.statusCode).toBe(200);
    expect(del.json().message).toBe(Messages.deleted);
    expect((await t.inject({ method: 'GET', url: '/api/get', headers: session })).statusCode).toBe(401);
    expect(await ids('fio=Удаляемый')).toEqual([]);
    expect(await ids('fio=Удаляемый&deleted=1')).toEqual([user.id]);
    const restored = await t.inject({ method: 'POST', url: `/api/manager/users/${user.id}/restore`, headers: op });
    expect(restored.statusCode).toBe(200);
    expect(restored.json().data.deleted_at).toBeNull();
    expect(await ids('fio=Удаляемый')).toEqual([user.id]);
    const logs = await logsOf(user.id);
    expect(logs.map((l) => (l.diff.deleted_at.new === null ? 'restore' : 'delete'))).toEqual(['delete', 'restore']);
  });

  it('an operator cannot delete themselves', async () => {
    const res = await t.inject({ method: 'DELETE', url: `/api/manager/users/${operator.id}`, headers: op });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe(UserMessages.noDeleteSelf);
  });
});

describe('get-by-fio', () => {
  it('finds active users by full name, best match first', async () => {
    const x = await t.createUser({ last_name: 'Искомова', first_name: 'Вера', middle_name: 'Павловна' });
    await t.createUser({ last_name: 'Искомова', first_name: 'Вера', deleted_at: new Date() });
    const res = await t.inject({ method: 'POST', url: '/api/user/get-by-fio', headers: op, payload: { fio: 'искомова вера' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toEqual([expect.objectContaining({ id: x.id, fio: 'Искомова Вера Павловна' })]);
    const empty = await t.inject({ method: 'POST', url: '/api/user/get-by-fio', headers: op, payload: { fio: ' ' } });
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors.fio).toEqual([Messages.fieldRequired]);
  });
});

describe('login as a user', () => {
  it("turns the operator session into the user's, shows who is behind it, and goes back in one call", async () => {
    const me = await t.createUser({ role: Role.operator, last_name: 'Вход', first_name: 'Оператор' });
    const opSession = await t.loginAs(me);
    const user = await t.createUser({ last_name: 'Клиентова', first_name: 'Нина' });
    const res = await t.inject({ method: 'POST', url: `/api/manager/users/${user.id}/login-as`, headers: opSession });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user).toEqual({ id: user.id, fio: 'Клиентова Нина Петрович' });
    const asUser = { authorization: `Bearer ${res.json().access_token}` };
    const current = (await t.inject({ method: 'GET', url: '/api/get', headers: asUser })).json();
    expect(current).toMatchObject({ id: user.id, role: 2, impersonator: { id: me.id, fio: expect.stringContaining('Вход Оператор') } });
    // The operator's own session has become the user's.
    expect((await t.inject({ method: 'GET', url: '/api/get', headers: opSession })).statusCode).toBe(401);
    // As the user, the manager area is closed.
    expect((await t.inject({ method: 'GET', url: '/api/manager/users', headers: asUser })).statusCode).toBe(403);

    const back = await t.inject({ method: 'POST', url: '/api/login-as/leave', headers: asUser });
    expect(back.statusCode, back.body).toBe(200);
    const asOperator = { authorization: `Bearer ${back.json().access_token}` };
    expect((await t.inject({ method: 'GET', url: '/api/get', headers: asOperator })).json()).toMatchObject({ id: me.id, role: 1, impersonator: null });
    expect((await t.inject({ method: 'GET', url: '/api/get', headers: asUser })).statusCode).toBe(401);
    const logs = await logsOf(user.id);
    expect(logs.filter((l) => 'login_as' in l.diff).map((l) => [l.user_id, l.diff.login_as.new])).toEqual([
      [me.id, 'начат'],
      [me.id, 'завершён'],
    ]);
  });

  it('is not possible for other operators, deleted users, oneself, or to leave without having started', async () => {
    const other = await t.createUser({ role: Role.operator });
    const deleted = await t.createUser({ deleted_at: new Date() });
    const refuse = async (id: number) => t.inject({ method: 'POST', url: `/api/manager/users/${id}/login-as`, headers: op });
    const a = await refuse(other.id);
    expect(a.statusCode).toBe(403);
    expect(a.json().message).toBe(UserMessages.noLoginAsOperator);
    const b = await refuse(deleted.id);
    expect(b.statusCode).toBe(422);
    expect(b.json().message).toBe(UserMessages.noLoginAsDeleted);
    expect((await refuse(operator.id)).statusCode).toBe(422);
    expect((await refuse(999999)).statusCode).toBe(404);
    const plain = await t.loginAs(await t.createUser());
    const leave = await t.inject({ method: 'POST', url: '/api/login-as/leave', headers: plain });
    expect(leave.statusCode).toBe(403);
    expect(leave.json().message).toBe(UserMessages.notImpersonating);
  });

  it('gives no session back to an operator demoted meanwhile', async () => {
    const me = await t.createUser({ role: Role.operator });
    const user = await t.createUser();
    const res = await t.inject({ method: 'POST', url: `/api/manager/users/${user.id}/login-as`, headers: await t.loginAs(me) });
    const asUser = { authorization: `Bearer ${res.json().access_token}` };
    await t.database.db.execute(sql`update users set role = 2 where id = ${me.id}`);
    expect((await t.inject({ method: 'POST', url: '/api/login-as/leave', headers: asUser })).statusCode).toBe(403);
    expect((await t.inject({ method: 'GET', url: '/api/get', headers: asUser })).statusCode).toBe(401);
  });
});

describe('users list at scale: has_profile, full-name index, capped total', () => {
  const hasProfile = async (id: number) =>
    (await rows<{ has_profile: boolean }>(t.database.db, sql`select has_profile from users where id = ${id}`))[0].has_profile;

  it('keeps users.has_profile by triggers as profiles are added, moved and removed, and ?profile=0 follows it', async () => {
    const x = await t.createUser({ last_name: 'Профилёва', first_name: 'Нина', profiles: [1, 2] });
    const y = await t.createUser({ last_name: 'Профилёва', first_name: 'Ольга' });
    expect(await hasProfile(x.id)).toBe(true);
    expect(await hasProfile(y.id)).toBe(false);
    expect(await ids('fio=Профилёва&profile=0')).toEqual([y.id]);

    await t.database.db.execute(sql`delete from user_profiles where user_id = ${x.id} and dict_profile_id = 1`);
    expect(await hasProfile(x.id)).toBe(true); // one left
    // The last profile moved to y: x has none now, y has one.
    await t.database.db.execute(sql`update user_profiles set user_id = ${y.id} where user_id = ${x.id}`);
    expect(await hasProfile(x.id)).toBe(false);
    expect(await hasProfile(y.id)).toBe(true);
    expect(await ids('fio=Профилёва&profile=0')).toEqual([x.id]);

    await t.database.db.execute(sql`delete from user_profiles where user_id = ${y.id}`);
    expect((await ids('fio=Профилёва&profile=0')).sort()).toEqual([x.id, y.id].sort());

    // The operator's form replaces the profiles (delete all, insert the chosen) in one transaction.
    const res = await t.inject({
      method: 'PUT',
      url: `/api/manager/users/${x.id}`,
      headers: op,
      payload: valid({ last_name: 'Профилёва', first_name: 'Нина', profiles: [3] }),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await hasProfile(x.id)).toBe(true);
    expect(await ids('fio=Профилёва&profile=0')).toEqual([y.id]);
    expect(await ids('fio=Профилёва&profile=3,0')).toEqual(expect.arrayContaining([x.id, y.id]));
  });

  it('matches each fio word inside one name part only, and the condition is served by users_full_name_trgm_idx', async () => {
    const x = await t.createUser({ last_name: 'Составова', first_name: 'Таисия', middle_name: null });
    expect(await ids('fio=таис')).toEqual([x.id]);
    expect(await ids('fio=Таисия%20СОСТАВ')).toEqual([x.id]);
    // 'ваТа' would only be found across the last and the first name: not a match.
    expect(await ids('fio=оваТаи')).toEqual([]);
    const found = await t.inject({ method: 'POST', url: '/api/user/get-by-fio', headers: op, payload: { fio: 'таисия составова' } });
    expect(found.json().data.map((u: { id: number }) => u.id)).toEqual([x.id]);

    const plan = await t.database.db.transaction(async (tx) => {
      await tx.execute(sql`set local enable_seqscan = off`);
      return rows<Record<string, string>>(tx, sql`explain select id from users u where ${fioCondition('Составова', 'u')}`);
    });
    expect(plan.map((r) => Object.values(r)[0]).join('\n')).toContain('users_full_name_trgm_idx');
  });

  it('counts at most COUNT_CAP + 1 users (shown as «более 1 000») for broad and pattern filters alike', async () => {
    await t.database.db
      .insert(users)
      .values(
        Array.from({ length: COUNT_CAP + 5 }, (_, i) => ({ email: `mass-${i}@example.com`, last_name: 'Массовая', first_name: `Анна${i}`, role: Role.user })),
      );
    for (const query of ['', 'fio=Массовая', 'email=mass-', 'role=2', 'profile=0']) {
      const { meta, data } = await list(`${query}&per_page=15`);
      expect(meta.total, query).toBe(COUNT_CAP + 1);
      expect(meta.last_page, query).toBe(Math.ceil((COUNT_CAP + 1) / 15));
      expect(data, query).toHaveLength(15);
    }
    expect((await list('fio=Массовая&page=2')).data[0].last_name).toBe('Массовая');
    expect(totalLabel((await list('fio=Массовая')).meta.total)).toBe('более 1 000');
    expect((await list('fio=Массовая%20Анна1000')).meta.total).toBe(1);
  });
});
