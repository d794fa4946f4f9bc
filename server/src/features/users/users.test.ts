import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { entries, services } from '../../db/schema/index.ts';
import { createTestApp, type TestApp } from '../../../test/helper.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const day = 86_400_000;

async function service(title: string, attrs: Partial<typeof services.$inferInsert> = {}) {
  const [row] = await t.database.db
    .insert(services)
    .values({ title, dict_type_id: 1, price: 1000, points: 10, ...attrs })
    .returning({ id: services.id });
  return row.id;
}

let seq = 0;
async function entry(userId: number, serviceId: number, status: number, price: number, deleted = false) {
  seq++;
  await t.database.db.insert(entries).values({
    number: `T-${userId}-${seq}`,
    created_by: userId,
    service_id: serviceId,
    status,
    price,
    deleted_at: deleted ? new Date() : null,
  });
}

describe('GET /api/get computed fields', () => {
  it('counts entries, unpaid sum, points and the nearest upcoming service from real data', async () => {
    const u = await t.createUser({ profiles: [3, 1] });
    const other = await t.createUser();
    const soon = await service('Вебинар «Функциональная грамотность»', { begda: new Date(Date.now() + 3 * day), points: 5 });
    const later = await service('Конференция «Цифровая школа»', { begda: new Date(Date.now() + 30 * day), points: 20 });
    const past = await service('Курс «Основы ФГОС»', { begda: new Date(Date.now() - 30 * day), points: 36 });
    const contractCourse = await service('Курс повышения квалификации', { dict_type_id: 3, begda: new Date(Date.now() - day), points: 72 });

    await entry(u.id, later, 1, 1500);
    await entry(u.id, soon, 1, 350.5);
    await entry(u.id, past, 3, 4900);
    await entry(u.id, contractCourse, 2, 12000);
    await entry(u.id, later, 1, 999, true); // deleted: not counted
    await entry(other.id, soon, 1, 777); // someone else's

    const res = await t.inject({ method: 'GET', url: '/api/get', headers: await t.loginAs(u) });
    expect(res.statusCode).toBe(200);
    const me = res.json();
    expect(me).toMatchObject({
      id: u.id,
      entries_num: 4,
      entries_unpaid_num: 2,
      left_sum: 1850.5,
      service_count: 2,
      points: 36,
      future_points: 72,
      is_documents_upload_allowed: true,
    });
    expect(me.closestService.title).toBe('Вебинар «Функциональная грамотность»');
    expect(me.closestService.begda_formatted).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);
    expect(me.profiles.map((p: { id: number }) => p.id)).toEqual([1, 3]);
    expect(me).not.toHaveProperty('password');
  });

  it('a fresh user has zeros, no nearest service and no documents card', async () => {
    const u = await t.createUser();
    const me = (await t.inject({ method: 'GET', url: '/api/get', headers: await t.loginAs(u) })).json();
    expect(me).toMatchObject({
      entries_num: 0,
      left_sum: 0,
      points: 0,
      future_points: 0,
      closestService: null,
      is_documents_upload_allowed: false,
      profiles: [],
    });
  });

  it('hides the manager note from the user it is about', async () => {
    const u = await t.createUser({ note: 'Просил перезвонить' });
    const me = (await t.inject({ method: 'GET', url: '/api/get', headers: await t.loginAs(u) })).json();
    expect(me.note).toBeNull();
  });
});

describe('public config', () => {
  it('gives the legacy cabinet address read at run time, without a session', async () => {
    const other = await createTestApp({ oldCabinetUrl: 'https://old-cabinet.example.org' });
    try {
      const res = await other.inject({ method: 'GET', url: '/api/public-config' });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toEqual({ old_cabinet_url: 'https://old-cabinet.example.org' });
    } finally {
      await other.close();
    }
  });
});
