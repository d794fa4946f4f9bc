import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Role } from '@edu/domain/common/codes';
import { formatRub } from '@edu/domain/common/format';
import { SYSTEM_USER_LABEL } from '@edu/domain/logs/log';
import { changeLogs } from '../../db/schema/index.ts';
import { sql } from 'drizzle-orm';
import { rows } from '../../platform/db.ts';
import { makeService } from '../../../test/fixtures.ts';
import { createTestApp, type TestApp } from '../../../test/helper.ts';

describe('change log', () => {
  let t: TestApp;
  let op: Record<string, string>;
  let operator: { id: number };
  beforeAll(async () => {
    t = await createTestApp();
    operator = await t.createUser({ role: Role.operator, last_name: 'Журналова', first_name: 'Ирина', middle_name: null });
    op = await t.loginAs(operator);
    await t.database.db.insert(changeLogs).values([
      { type: 'entry', entity_id: 501, user_id: operator.id, diff: { price: { old: 500, new: 700 } }, created_at: new Date(Date.now() - 3000) },
      {
        type: 'entry',
        entity_id: 501,
        user_id: null,
        diff: { deleted_at: { old: null, new: '2026-11-01T00:00:00.000Z' } },
        created_at: new Date(Date.now() - 2000),
      },
      { type: 'publication', entity_id: 501, user_id: operator.id, diff: { status: { old: 1, new: 2 } }, created_at: new Date(Date.now() - 1000) },
    ]);
  });
  afterAll(() => t.close());

  it('lists newest first with type label, user or «Система», diff and time', async () => {
    const res = await t.inject({ method: 'GET', url: '/api/log?entity_id=501', headers: op });
    expect(res.statusCode).toBe(200);
    const { data, meta } = res.json();
    expect(meta).toEqual({ current_page: 1, last_page: 1, total: 3, per_page: 15 });
    expect(data.map((r: { type: string }) => r.type)).toEqual(['publication', 'entry', 'entry']);
    expect(data[0]).toMatchObject({ type_label: 'Публикация', user_label: 'Журналова Ирина', user: { id: operator.id } });
    expect(data[1]).toMatchObject({ type_label: 'Заявка', user: null, user_label: SYSTEM_USER_LABEL });
    expect(data[2].diff).toEqual({ price: { old: 500, new: 700 } });
    expect(data[2].created_at_formatted).toMatch(/^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}/);
  });

  it('reads in Russian: labels, code names, people and records by name, Moscow time, yes/no', async () => {
    const client = await t.createUser({ last_name: 'Читаемая', first_name: 'Вера', middle_name: null });
    await t.database.db.insert(changeLogs).values({
      type: 'entry',
      entity_id: 777001,
      user_id: operator.id,
      diff: {
        status: { old: 1, new: 2 },
        created_by: { old: null, new: client.id },
        pay_type: { old: 3, new: 2 },
        is_service_package: { old: null, new: false },
        paid_at: { old: null, new: '2026-11-23T09:05:00.000Z' },
        reason: { old: null, new: 'Пакет не оплачен за 15 минут' },
        price: { old: 900, new: 0 },
        is_extramural: { old: 0, new: 1 },
      },
    });
    const { data } = (await t.inject({ method: 'GET', url: '/api/log?entity_id=777001', headers: op })).json();
    // jsonb keeps its own key order: compare as a set.
    expect(data[0].changes.map((c: { label: string; old: string; new: string }) => `${c.label}: ${c.old} → ${c.new}`).sort()).toEqual(
      [
        'Статус: Не оплачена → Оплачена',
        'Клиент: — → Читаемая Вера',
        'Тип оплаты: Онлайн → Офис',
        'Из пакета услуг: — → Нет',
        'Дата оплаты: — → 23.11.2026 12:05',
        'Причина: — → Пакет не оплачен за 15 минут',
        `Цена: ${formatRub(900)} → ${formatRub(0)}`,
        // One word per value, as on every other screen.
        'Участие: Очно → Дистанционно',
      ].sort(),
    );
    // A publication's status is a publication status.
    await t.database.db.insert(changeLogs).values({ type: 'publication', entity_id: 777002, user_id: null, diff: { status: { old: 1, new: 0 } } });
    const pub = (await t.inject({ method: 'GET', url: '/api/log?entity_id=777002', headers: op })).json().data[0];
    expect(pub.changes).toEqual([{ field: 'status', label: 'Статус', old: 'Ожидает проверки', new: 'Отклонена' }]);
  });

  it('filters by who acted and by a Moscow date range; refuses a range that ends before it starts', async () => {
    const actor = await t.createUser({ role: Role.operator, last_name: 'Фильтрова', first_name: 'Дарья', middle_name: null });
    await t.database.db.insert(changeLogs).values([
      // 22.11.2026 23:30 in Moscow (20:30 UTC) and 23.11.2026 00:30 in Moscow (22.11 21:30 UTC).
      { type: 'service', entity_id: 888001, user_id: actor.id, diff: { title: { old: 'А', new: 'Б' } }, created_at: new Date('2026-11-22T20:30:00Z') },
      { type: 'service', entity_id: 888001, user_id: actor.id, diff: { title: { old: 'Б', new: 'В' } }, created_at: new Date('2026-11-22T21:30:00Z') },
      { type: 'service', entity_id: 888001, user_id: operator.id, diff: { title: { old: 'В', new: 'Г' } }, created_at: new Date('2026-11-24T10:00:00Z') },
    ]);
    const total = async (q: string) => (await t.inject({ method: 'GET', url: `/api/log?entity_id=888001&${q}`, headers: op })).json().meta.total;
    expect(await total(`fio=${encodeURIComponent('Фильтрова')}`)).toBe(2);
    expect(await total('date_from=23.11.2026')).toBe(2);
    expect(await total('date_to=22.11.2026')).toBe(1);
    expect(await total('date_from=23.11.2026&date_to=23.11.2026')).toBe(1);
    const backwards = await t.inject({ method: 'GET', url: '/api/log?date_from=24.11.2026&date_to=23.11.2026', headers: op });
    expect(backwards.statusCode).toBe(422);
    expect(backwards.json().errors.date_to).toEqual(['Дата окончания раньше даты начала']);
    expect((await t.inject({ method: 'GET', url: '/api/log?date_from=31.02.2026', headers: op })).statusCode).toBe(422);
  });

  it('filters by type and entity id, and refuses unknown types', async () => {
    const entry = (await t.inject({ method: 'GET', url: '/api/log?type=entry&entity_id=501', headers: op })).json();
    expect(entry.meta.total).toBe(2);
    expect((await t.inject({ method: 'GET', url: '/api/log?type=entry&entity_id=502', headers: op })).json().meta.total).toBe(0);
    const bad = await t.inject({ method: 'GET', url: '/api/log?type=secret', headers: op });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toBe('Неизвестный тип');
    expect((await t.inject({ method: 'GET', url: '/api/log?entity_id=-1', headers: op })).statusCode).toBe(422);
  });

  it('finds a record by what a person has: an entry number, a client by name or e-mail, a publication title', async () => {
    const client = await t.createUser({ last_name: 'Записева', first_name: 'Нина', middle_name: null, email: 'zapiseva@example.ru' });
    const other = await t.createUser({ last_name: 'Посторонний', first_name: 'Олег', middle_name: null });
    const s = await makeService(t.database.db, { title: 'Всероссийская конференция «Цифровая школа»' });
    const entry = async (number: string, userId: number) =>
      (
        await rows<{ id: number }>(
          t.database.db,
          sql`insert into entries (number, created_by, service_id, price, status) values (${number}, ${userId}, ${s.id}, 500, 1) returning id`,
        )
      )[0].id;
    const mine = await entry('2611-00071', client.id);
    const theirs = await entry('2611-00072', other.id);
    const [pub] = await rows<{ id: number }>(
      t.database.db,
      sql`insert into publications (title, status, created_by) values ('Игровые технологии на уроке', 1, ${other.id}) returning id`,
    );
    const [pay] = await rows<{ id: number }>(t.database.db, sql`insert into payments (sum, pay_type, user_id) values (500, 2, ${client.id}) returning id`);
    await t.database.db.execute(sql`insert into payment_entries (payment_id, entry_id, sum) values (${pay.id}, ${mine}, 500)`);
    await t.database.db.insert(changeLogs).values([
      { type: 'entry', entity_id: mine, user_id: operator.id, diff: { price: { old: 400, new: 500 } } },
      { type: 'entry', entity_id: theirs, user_id: operator.id, diff: { price: { old: 400, new: 500 } } },
      { type: 'payment', entity_id: pay.id, user_id: operator.id, diff: { sum: { old: null, new: 500 } } },
      { type: 'user', entity_id: client.id, user_id: client.id, diff: { phone: { old: null, new: '+7 (900) 000-00-00' } } },
      { type: 'publication', entity_id: pub.id, user_id: other.id, diff: { status: { old: 1, new: 2 } } },
    ]);
    const records = async (q: string) => {
      const res = await t.inject({ method: 'GET', url: `/api/log?record=${encodeURIComponent(q)}`, headers: op });
      expect(res.statusCode, res.body).toBe(200);
      return (res.json().data as Array<{ record: { label: string } }>).map((r) => r.record.label).sort();
    };
    const entryLabel = 'Заявка 2611-00071 «Всероссийская конференция „Цифровая школа“»';
    const paymentLabel = `Платёж № ${pay.id}, заявка 2611-00071`;
    // The entry number: the entry and its payment; a beginning of the number finds both entries.
    expect(await records('2611-00071')).toEqual([entryLabel, paymentLabel].sort());
    expect(await records('2611-0007')).toHaveLength(3);
    // The client by surname or e-mail: their entry, payment and profile, not the other client's.
    const clientRows = [entryLabel, paymentLabel, 'Пользователь Записева Нина'].sort();
    expect(await records('Записева')).toEqual(clientRows);
    expect(await records('zapiseva@example')).toEqual(clientRows);
    // A publication by its title.
    expect(await records('игровые технологии')).toEqual(['Публикация «Игровые технологии на уроке»']);
    // Every row names its record with a link to it.
    const { data } = (await t.inject({ method: 'GET', url: `/api/log?type=entry&entity_id=${mine}`, headers: op })).json();
    expect(data[0].record).toEqual({ label: entryLabel, url: '/manager/entry?number=2611-00071' });
    // A deleted entry's link opens the deleted entries.
    await t.database.db.execute(sql`update entries set deleted_at = now() where id = ${theirs}`);
    const deleted = (await t.inject({ method: 'GET', url: `/api/log?type=entry&entity_id=${theirs}`, headers: op })).json().data[0];
    expect(deleted.record.url).toBe('/manager/entry?number=2611-00072&deleted=1');
    const gone = (await t.inject({ method: 'GET', url: '/api/log?type=publication&entity_id=501', headers: op })).json().data[0];
    expect(gone.record).toEqual({ label: 'Публикация #501', url: null });
  });

  it("an operator's edit of a user appears in the log with the operator as author", async () => {
    const user = await t.createUser({ profiles: [1] });
    await t.inject({ method: 'POST', url: `/api/user/store-profiles/${user.id}`, headers: op, payload: { profiles: [1, 2] } });
    const { data } = (await t.inject({ method: 'GET', url: `/api/log?type=user&entity_id=${user.id}`, headers: op })).json();
    expect(data).toHaveLength(1);
    expect(data[0]).toMatchObject({ type_label: 'Пользователь', user_label: 'Журналова Ирина', diff: { profiles: { old: [1], new: [1, 2] } } });
  });

  it('a change made in a "login as user" session names both the client and the operator who acted', async () => {
    const acting = await t.createUser({ role: Role.operator, last_name: 'Действующая', first_name: 'Ольга', middle_name: null });
    const client = await t.createUser({ profiles: [1], last_name: 'Клиентская', first_name: 'Анна', middle_name: null });
    const started = await t.inject({ method: 'POST', url: `/api/manager/users/${client.id}/login-as`, headers: await t.loginAs(acting) });
    expect(started.statusCode, started.body).toBe(200);
    const asClient = { authorization: `Bearer ${started.json().access_token}` };
    // A JSON body: the request context must survive body parsing.
    const saved = await t.inject({ method: 'POST', url: `/api/user/store-profiles/${client.id}`, headers: asClient, payload: { profiles: [1, 3] } });
    expect(saved.statusCode, saved.body).toBe(200);
    // The client's own change afterwards carries no operator.
    await t.inject({ method: 'POST', url: `/api/user/store-profiles/${client.id}`, headers: await t.loginAs(client), payload: { profiles: [3] } });

    const { data } = (await t.inject({ method: 'GET', url: `/api/log?type=user&entity_id=${client.id}`, headers: op })).json();
    const profileRows = data.filter((r: { diff: object }) => 'profiles' in r.diff);
    expect(profileRows.map((r: { user_label: string; impersonator: unknown }) => [r.user_label, r.impersonator])).toEqual([
      ['Клиентская Анна', null],
      ['Клиентская Анна', { id: acting.id, fio: 'Действующая Ольга' }],
    ]);
    // Starting the session is the operator's own act: no "on behalf of" there.
    const start = data.find((r: { diff: object }) => 'login_as' in r.diff);
    expect(start).toMatchObject({ user: { id: acting.id }, impersonator: null });
  });
});

describe('request log', () => {
  let t: TestApp;
  let op: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp({ requestLog: true });
    op = await t.loginAs(await t.createUser({ role: Role.operator }));
  });
  afterAll(() => t.close());

  it('records API calls with status, duration, memory and the body of errors; errorsOnly keeps failures', async () => {
    await t.inject({ method: 'GET', url: '/api/manager/users?role=9', headers: op });
    await t.inject({ method: 'GET', url: '/api/entry/statistics', headers: op });
    await t.inject({ method: 'GET', url: '/api/entry/statistics' });
    await t.app.flushRequestLog();
    const all = (await t.inject({ method: 'GET', url: '/api/telescope/requests?type=request', headers: op })).json();
    const rows = all.data as Array<{ path: string; status: number; method: string; duration_ms: number; memory_mb: number; response: string | null }>;
    expect(rows.length).toBeGreaterThanOrEqual(3);
    const invalid = rows.find((r) => r.path.startsWith('/api/manager/users?role=9'))!;
    expect(invalid).toMatchObject({ method: 'GET', status: 422 });
    expect(invalid.response).toContain('Неизвестная роль');
    expect(invalid.duration_ms).toBeGreaterThanOrEqual(0);
    expect(invalid.memory_mb).toBeGreaterThan(0);
    expect(rows.find((r) => r.status === 200 && r.path === '/api/entry/statistics')?.response).toBeNull();
    const errors = (await t.inject({ method: 'GET', url: '/api/telescope/requests?errorsOnly=1', headers: op })).json();
    expect(errors.data.length).toBeGreaterThanOrEqual(2);
    expect(errors.data.every((r: { status: number }) => r.status >= 400)).toBe(true);
    // Reading the log is not itself logged.
    expect(rows.some((r) => r.path.startsWith('/api/telescope'))).toBe(false);
  });

  it('keeps quotes, braces, commas, backslashes and the word NULL as they were, each at the time of its request', async () => {
    // As the client sends it (a client percent-encodes quotes and letters outside ASCII).
    const awkward = `/api/manager/users?role=9&x={a,%22b%22}\\NULL%27%D1%91`;
    await t.inject({ method: 'GET', url: awkward, headers: op });
    await new Promise((resolve) => setTimeout(resolve, 50));
    await t.inject({ method: 'GET', url: '/api/entry/statistics?later=1', headers: op });
    await t.app.flushRequestLog();
    const rows = (await t.inject({ method: 'GET', url: '/api/telescope/requests?type=request', headers: op })).json().data as Array<{
      path: string;
      created_at: string;
    }>;
    const first = rows.find((r) => r.path.includes('x='))!;
    const later = rows.find((r) => r.path === '/api/entry/statistics?later=1')!;
    expect(first.path).toBe(awkward);
    expect(new Date(later.created_at).getTime()).toBeGreaterThan(new Date(first.created_at).getTime());
  });
});
