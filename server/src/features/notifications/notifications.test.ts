import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notify } from '../../platform/notify.ts';
import { createTestApp, type TestApp } from '../../../test/helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('notifications', () => {
  it('a user sees only their own, unread first; reads one, then all', async () => {
    const me = await t.createUser();
    const other = await t.createUser();
    const h = await t.loginAs(me);
    for (let i = 1; i <= 3; i++) await notify(t.database.db, { userId: me.id, text: `Сообщение <b>${i}</b>`, url: '/user/entry' });
    await notify(t.database.db, { userId: other.id, text: 'Чужое' });

    const list = (await t.inject({ method: 'GET', url: `/api/notification?user_id=${other.id}`, headers: h })).json();
    expect(list.meta.total).toBe(3);
    expect(list.data[0]).toMatchObject({ checked: false, text_clear: 'Сообщение 3', url: '/user/entry' });

    const fresh = (await t.inject({ method: 'GET', url: '/api/notification/new?after_id=0', headers: h })).json();
    expect(fresh.count).toBe(3);
    const newest = fresh.data[0].id as number;
    expect((await t.inject({ method: 'GET', url: `/api/notification/new?after_id=${newest}`, headers: h })).json().data).toEqual([]);

    const otherId = (await t.inject({ method: 'GET', url: '/api/notification', headers: await t.loginAs(other) })).json().data[0].id;
    expect((await t.inject({ method: 'POST', url: `/api/notification/${otherId}/read`, headers: h })).statusCode).toBe(404);

    expect((await t.inject({ method: 'POST', url: `/api/notification/${newest}/read`, headers: h })).json().data.checked).toBe(true);
    const unread = (await t.inject({ method: 'GET', url: '/api/notification?checked=0', headers: h })).json();
    expect(unread.meta.total).toBe(2);
    const posted = (await t.inject({ method: 'POST', url: '/api/notification/index', headers: h, payload: { checked: '1' } })).json();
    expect(posted.meta.total).toBe(1);

    // `all` is a flag like every other (issue 19): 1 as well as true.
    expect((await t.inject({ method: 'POST', url: '/api/notification/read-all', headers: h, payload: { all: 1 } })).statusCode).toBe(200);
    expect((await t.inject({ method: 'GET', url: '/api/notification/new', headers: h })).json().count).toBe(0);
    expect((await t.inject({ method: 'GET', url: '/api/notification/new', headers: await t.loginAs(other) })).json().count).toBe(1);
  });
});
