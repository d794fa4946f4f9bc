import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { servicePackages, servicePackageServices } from '../../db/schema/index.ts';
import { rows } from '../../platform/db.ts';
import { createTestApp, type TestApp } from '../../../test/helper.ts';
import { makeService } from '../../../test/fixtures.ts';
import { splitPrice } from './enroll-package.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

async function makePackage(price: number, serviceIds: number[], attrs: Partial<typeof servicePackages.$inferInsert> = {}) {
  const [p] = await t.database.db
    .insert(servicePackages)
    .values({ title: 'Пакет «Молодой педагог»', price, ...attrs })
    .returning();
  await t.database.db.insert(servicePackageServices).values(serviceIds.map((service_id, position) => ({ service_package_id: p.id, service_id, position })));
  return p.id;
}

describe('service packages', () => {
  it('split the package price exactly over the services', () => {
    expect(splitPrice(1000, [500, 500, 1000])).toEqual([250, 250, 500]);
    const parts = splitPrice(1000, [1, 1, 1]);
    expect(parts.reduce((a, b) => a + b, 0)).toBeCloseTo(1000, 2);
  });

  it('list with is_pinned and dict_profile_id filters, services with sections inside', async () => {
    const a = await makeService(t.database.db, { sections: ['С1', 'С2'] });
    const pinned = await makePackage(900, [a.id], { is_pinned: true, dict_profile_id: 9 });
    const res = (
      await t.inject({ method: 'GET', url: '/api/service-package?is_pinned=1&dict_profile_id=9', headers: await t.loginAs(await t.createUser()) })
    ).json();
    expect(res.data.map((p: { id: number }) => p.id)).toEqual([pinned]);
    expect(res.data[0].services[0].sections).toHaveLength(2);
    expect(res.data[0]).toMatchObject({ pinned: true, is_pinned: true, price: 900 });
  });

  it('enrol creates every entry at the package price, or none when one fails', async () => {
    const a = await makeService(t.database.db, { price: 600, sections: ['Утро', 'Вечер'] });
    const b = await makeService(t.database.db, { price: 400 });
    const full = await makeService(t.database.db, { price: 1000, max_participants: 1 });
    const ok = await makePackage(800, [a.id, b.id]);
    const u = await t.createUser();
    const headers = await t.loginAs(u);

    const missing = await t.inject({ method: 'POST', url: `/api/service-package/${ok}/enroll`, headers, payload: { services: { [b.id]: null } } });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors.services).toBeDefined();

    const res = await t.inject({
      method: 'POST',
      url: `/api/service-package/${ok}/enroll`,
      headers,
      payload: { services: { [a.id]: a.sectionIds[1], [b.id]: null } },
    });
    expect(res.statusCode).toBe(201);
    const entries = res.json().data.entries as Array<{ price: number; is_service_package: boolean; section_id: number | null }>;
    expect(entries.map((e) => e.price)).toEqual([480, 320]);
    expect(entries.every((e) => e.is_service_package)).toBe(true);
    expect(entries[0].section_id).toBe(a.sectionIds[1]);

    // A package whose last service has no seat left: nothing is created.
    const other = await t.createUser();
    await t.inject({ method: 'POST', url: '/api/entry', headers: await t.loginAs(other), payload: { service_id: full.id, pay_type: 3, is_extramural: 0 } });
    const c = await makeService(t.database.db, { price: 100 });
    const broken = await makePackage(900, [c.id, full.id]);
    const late = await t.createUser();
    const fail = await t.inject({
      method: 'POST',
      url: `/api/service-package/${broken}/enroll`,
      headers: await t.loginAs(late),
      payload: { services: { [c.id]: null, [full.id]: null } },
    });
    expect(fail.statusCode).toBe(422);
    const [n] = await rows<{ n: number }>(t.database.db, sql`select count(*)::int as n from entries where created_by = ${late.id}`);
    expect(n.n).toBe(0);
  });
});
