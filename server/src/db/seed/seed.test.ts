import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { sql } from 'drizzle-orm';
import { KnownIds, Role } from '@edu/domain/common/codes';
import { openPglite, rows, type Database } from '../../platform/db.ts';
import { verifyPassword } from '../../platform/passwords.ts';
import { dictProfiles } from '../schema/index.ts';
import { demoServices } from './demo-data.ts';
import { seedDemo, seedDictionaries, type DemoCredentials } from './seed.ts';

const countedTables = [
  'dict_profiles',
  'dict_service_types',
  'dict_service_subtypes',
  'dict_macros_categories',
  'dict_macroses',
  'dict_template_types',
  'dict_events',
  'dict_publication_categories',
  'dict_document_types',
  'dict_regions',
  'leadings',
  'users',
  'user_profiles',
  'services',
  'service_sections',
  'service_profiles',
  'service_leadings',
  'service_packages',
  'service_package_services',
];

const now = new Date('2025-03-10T09:00:00Z');
let database: Database;
let credentials: DemoCredentials;

async function counts(): Promise<Record<string, number>> {
  const result: Record<string, number> = {};
  for (const table of countedTables) {
    const [row] = await rows<{ n: number }>(database.db, sql`select count(*)::int as n from ${sql.identifier(table)}`);
    result[table] = Number(row.n);
  }
  return result;
}

async function seedAll(): Promise<DemoCredentials> {
  await seedDictionaries(database.db);
  return seedDemo(database.db, { password: 'demo1234', now });
}

describe('seed', () => {
  beforeAll(async () => {
    database = await openPglite(undefined);
    await database.migrate();
    credentials = await seedAll();
  }, 60_000);

  afterAll(async () => {
    await database?.close();
  });

  it('adds nothing on a second run', async () => {
    const before = await counts();
    expect(before.services).toBeGreaterThanOrEqual(12);
    expect(before.users).toBe(2);
    await seedAll();
    expect(await counts()).toEqual(before);
  });

  it('does not overwrite an operator edit of a dictionary row', async () => {
    await database.db.execute(sql`update dict_profiles set fdv = 'Изменено оператором' where id = 1`);
    await seedDictionaries(database.db);
    const [row] = await rows<{ fdv: string }>(database.db, sql`select fdv from dict_profiles where id = 1`);
    expect(row.fdv).toBe('Изменено оператором');
  });

  it('has the ids the spec relies on', async () => {
    const [contest] = await rows<{ fdv: string }>(
      database.db,
      sql`select fdv from dict_service_types where id = ${KnownIds.contestServiceType}`,
    );
    expect(contest.fdv).toBe('Конкурсы');

    const [internet] = await rows<{ fdv: string; is_publication: boolean; dict_service_type_id: number }>(
      database.db,
      sql`select fdv, is_publication, dict_service_type_id from dict_service_subtypes where id = ${KnownIds.internetPublicationSubtype}`,
    );
    expect(internet).toMatchObject({ fdv: 'Интернет-публикация', is_publication: true });
    const [publicationType] = await rows<{ is_publication: boolean }>(
      database.db,
      sql`select is_publication from dict_service_types where id = ${internet.dict_service_type_id}`,
    );
    expect(publicationType.is_publication).toBe(true);

    const [welcome] = await rows<{ fdv: string; dv: string; content: string }>(
      database.db,
      sql`select fdv, dv, content from dict_events where id = ${KnownIds.welcomeEvent}`,
    );
    expect(welcome.dv).toBe('Добро пожаловать в личный кабинет!');
    expect(welcome.content).toContain('{user.fio}');

    const [forgot] = await rows<{ content: string }>(database.db, sql`select content from dict_events where dv = 'Новый пароль для входа'`);
    expect(forgot.content).toContain('{password}');

    const [category] = await rows<{ fdv: string }>(
      database.db,
      sql`select fdv from dict_macros_categories where id = ${KnownIds.defaultMacroCategory}`,
    );
    expect(category.fdv).toBe('Заявка');

    const templateTypes = await rows<{ id: number; dv: string }>(database.db, sql`select id, dv from dict_template_types order by id`);
    expect(templateTypes.map((t) => t.dv)).toEqual(['certificate', 'program', 'regList', 'page', 'notification', 'consent', 'contract']);
  });

  it('has the 89 regions with distinct codes', async () => {
    const [row] = await rows<{ n: number; codes: number }>(
      database.db,
      sql`select count(*)::int as n, count(distinct code)::int as codes from dict_regions`,
    );
    expect(row).toEqual({ n: 89, codes: 89 });
    const [spb] = await rows<{ fdv: string }>(database.db, sql`select fdv from dict_regions where code = '78'`);
    expect(spb.fdv).toBe('Санкт-Петербург');
  });

  it('has two demo packages, one pinned, each cheaper than its services', async () => {
    const packages = await rows<{ is_pinned: boolean; dict_profile_id: number | null; price: string; old_price: string; services: number; sum: string }>(
      database.db,
      sql`select p.is_pinned, p.dict_profile_id, p.price, p.old_price, count(ps.service_id)::int as services, sum(s.price) as sum
          from service_packages p join service_package_services ps on ps.service_package_id = p.id join services s on s.id = ps.service_id
          group by p.id order by p.id`,
    );
    expect(packages).toHaveLength(2);
    expect(packages.filter((p) => p.is_pinned)).toHaveLength(1);
    expect(packages.find((p) => p.is_pinned)?.dict_profile_id).not.toBeNull();
    for (const pkg of packages) {
      expect(pkg.services).toBe(3);
      expect(Number(pkg.old_price)).toBe(Number(pkg.sum));
      expect(Number(pkg.price)).toBeLessThan(Number(pkg.old_price));
    }
  });

  it('keeps demo service titles within 100 characters and under matching types', async () => {
    for (const service of demoServices(now)) expect(service.title.length).toBeLessThanOrEqual(100);
    const mismatched = await rows<{ id: number }>(
      database.db,
      sql`select s.id from services s join dict_service_subtypes st on st.id = s.dict_subtype_id where st.dict_service_type_id <> s.dict_type_id`,
    );
    expect(mismatched).toEqual([]);
    const [contests] = await rows<{ n: number }>(
      database.db,
      sql`select count(*)::int as n from services where dict_type_id = ${KnownIds.contestServiceType}`,
    );
    expect(contests.n).toBeGreaterThan(0);
  });

  it('creates the demo operator and user with argon2 hashes', async () => {
    const demo = await rows<{ email: string; role: number; password: string; profiles: number }>(
      database.db,
      sql`select u.email, u.role, u.password, (select count(*)::int from user_profiles up where up.user_id = u.id) as profiles
          from users u order by u.role`,
    );
    expect(demo.map((u) => [u.email, u.role])).toEqual([
      [credentials.operator.email, Role.operator],
      [credentials.user.email, Role.user],
    ]);
    for (const user of demo) {
      expect(user.password).toMatch(/^\$argon2id\$/);
      expect(await verifyPassword(user.password, 'demo1234')).toBe(true);
    }
    expect(demo[1].profiles).toBeGreaterThan(0);
  });

  it('lets a dictionary row be added without an id after seeding', async () => {
    const [created] = await database.db.insert(dictProfiles).values({ fdv: 'Новый профиль', color: 'gray' }).returning();
    const [max] = await rows<{ id: number }>(database.db, sql`select max(id)::int as id from dict_profiles`);
    expect(created.id).toBe(max.id);
    expect(created.id).toBeGreaterThan(11);
  });
});
