import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { Messages } from '@edu/domain/common/messages';
import { PackageFormMessages } from '@edu/domain/service-packages/service-package';
import { rows } from '../../platform/db.ts';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { makeService } from '../../../test/fixtures.ts';

let t: TestApp;
let operator: Record<string, string>;
let user: Record<string, string>;
let a: number;
let b: number;

beforeAll(async () => {
  t = await createTestApp();
  operator = await t.loginAs(await t.createUser({ role: 1 }));
  user = await t.loginAs(await t.createUser());
  a = (await makeService(t.database.db, { title: 'Пакетная услуга А', price: 1000 })).id;
  b = (await makeService(t.database.db, { title: 'Пакетная услуга Б', price: 2000 })).id;
});
afterAll(() => t.close());

const body = (over: Record<string, unknown> = {}) => ({
  title: 'Пакет «Старт»',
  description: 'Два вебинара',
  color: 'teal',
  price: 2500,
  old_price: 3000,
  points: 10,
  is_pinned: false,
  dict_profile_id: 1,
  services: [b, a],
  ...over,
});
const one = async (id: number) => (await t.inject({ method: 'GET', url: `/api/service-package/${id}`, headers: user })).json().data;

describe('service packages for operators', () => {
  it('creates with services in order, price, old price, points, colour and profile; users may not', async () => {
    expect((await t.inject({ method: 'POST', url: '/api/service-package', headers: user, payload: body() })).statusCode).toBe(403);
    const res = await t.inject({ method: 'POST', url: '/api/service-package', headers: operator, payload: body() });
    expect(res.statusCode).toBe(201);
    expect(res.json().message).toBe(Messages.saved);
    const p = await one(res.json().data.id);
    expect(p).toMatchObject({ title: 'Пакет «Старт»', color: 'teal', price: 2500, oldPrice: 3000, points: 10, dict_profile_id: 1, is_pinned: false });
    expect(p.services.map((s: { id: number }) => s.id)).toEqual([b, a]);
    const [log] = await rows<{ n: number }>(
      t.database.db,
      sql`select count(*)::int as n from change_logs where type = 'service_package' and entity_id = ${p.id}`,
    );
    expect(log.n).toBe(1);
  });

  it('validates title, services, prices and references', async () => {
    const res = await t.inject({
      method: 'POST',
      url: '/api/service-package',
      headers: operator,
      payload: body({ title: '', services: [], price: 100, old_price: 50 }),
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().errors).toMatchObject({
      title: expect.any(Array),
      services: [PackageFormMessages.chooseServices],
      old_price: [PackageFormMessages.oldPriceLower],
    });
    const refs = await t.inject({
      method: 'POST',
      url: '/api/service-package',
      headers: operator,
      payload: body({ services: [a, 999999], dict_profile_id: 999 }),
    });
    expect(refs.json().errors).toEqual({ services: [PackageFormMessages.unknownService], dict_profile_id: [PackageFormMessages.unknownProfile] });
  });

  it('keeps one pinned package per profile, edits and deletes', async () => {
    const first = (
      await t.inject({ method: 'POST', url: '/api/service-package', headers: operator, payload: body({ is_pinned: true, dict_profile_id: 3 }) })
    ).json().data.id;
    const second = (
      await t.inject({
        method: 'POST',
        url: '/api/service-package',
        headers: operator,
        payload: body({ title: 'Второй', is_pinned: true, dict_profile_id: 3 }),
      })
    ).json().data.id;
    expect((await one(first)).is_pinned).toBe(false);
    expect((await one(second)).is_pinned).toBe(true);
    const pinned = (await t.inject({ method: 'GET', url: '/api/service-package?is_pinned=1&dict_profile_id=3', headers: user })).json().data;
    expect(pinned.map((p: { id: number }) => p.id)).toEqual([second]);

    const edit = await t.inject({
      method: 'PUT',
      url: `/api/service-package/${second}`,
      headers: operator,
      payload: body({ title: 'Второй (новый)', price: 2000, services: [a], is_pinned: true, dict_profile_id: 3 }),
    });
    expect(edit.statusCode).toBe(200);
    const p = await one(second);
    expect(p).toMatchObject({ title: 'Второй (новый)', price: 2000 });
    expect(p.services.map((s: { id: number }) => s.id)).toEqual([a]);

    const del = await t.inject({ method: 'DELETE', url: `/api/service-package/${second}`, headers: operator });
    expect(del.json().message).toBe(Messages.deleted);
    expect((await t.inject({ method: 'GET', url: `/api/service-package/${second}`, headers: user })).statusCode).toBe(404);
    expect((await t.inject({ method: 'DELETE', url: `/api/service-package/${second}`, headers: operator })).statusCode).toBe(404);
    expect((await t.inject({ method: 'PUT', url: `/api/service-package/${second}`, headers: operator, payload: body() })).statusCode).toBe(404);
  });
});
