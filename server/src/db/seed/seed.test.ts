import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { sql } from 'drizzle-orm';
import { EventId, KnownIds, Role } from '@edu/domain/common/codes';
import { openPglite, rows, type Database } from '../../platform/db.ts';
import { verifyPassword } from '../../platform/passwords.ts';
import { dictProfiles } from '../schema/index.ts';
import { demoServices } from './demo-data.ts';
import { replacedEventContents, requotedEventTexts, requotedNotificationTexts } from './dictionaries-data.ts';
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
  }, 180_000);

  afterAll(async () => {
    await database?.close();
  });

  it('adds nothing on a second run', async () => {
    const before = await counts();
    expect(before.services).toBeGreaterThanOrEqual(12);
    expect(before.users).toBeGreaterThan(10);
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
    const [contest] = await rows<{ fdv: string }>(database.db, sql`select fdv from dict_service_types where id = ${KnownIds.contestServiceType}`);
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

    // A letter an earlier version shipped is brought up to date on start; an operator's own text is kept.
    const [replaced] = replacedEventContents;
    await database.db.execute(sql`update dict_events set content = ${replaced.old} where id = ${replaced.eventId}`);
    await seedDictionaries(database.db);
    const content = async () => (await rows<{ content: string }>(database.db, sql`select content from dict_events where id = ${replaced.eventId}`))[0].content;
    expect(await content()).toBe(replaced.now);
    await database.db.execute(sql`update dict_events set content = ${'<p>Свой текст оператора</p>'} where id = ${replaced.eventId}`);
    await seedDictionaries(database.db);
    expect(await content()).toBe('<p>Свой текст оператора</p>');
    await database.db.execute(sql`update dict_events set content = ${replaced.now} where id = ${replaced.eventId}`);

    // Subjects and texts shipped with «${service.title}» (doubled quotes) are requoted; the «entry done» subject no longer declines the title.
    const done = requotedEventTexts.find((r) => r.eventId === EventId.entryDone && r.column === 'dv')!;
    expect(done).toEqual({
      eventId: EventId.entryDone,
      column: 'dv',
      old: 'Участие в «${service.title}» завершено',
      now: 'Участие завершено: ${service.title_quoted}',
    });
    await database.db.execute(sql`update dict_events set dv = ${done.old} where id = ${done.eventId}`);
    const note = requotedNotificationTexts.find((r) => r.eventId === EventId.entryDone)!;
    await database.db.execute(sql`update templates set content = ${note.old} where dict_type_id = 5 and event_id = ${note.eventId}`);
    await seedDictionaries(database.db);
    expect((await rows<{ dv: string }>(database.db, sql`select dv from dict_events where id = ${done.eventId}`))[0].dv).toBe(done.now);
    expect(
      (await rows<{ content: string }>(database.db, sql`select content from templates where dict_type_id = 5 and event_id = ${note.eventId}`))[0].content,
    ).toBe('Заявка № <b>${entry.number}</b> на услугу ${service.title_quoted} завершена.');

    const [category] = await rows<{ fdv: string }>(database.db, sql`select fdv from dict_macros_categories where id = ${KnownIds.defaultMacroCategory}`);
    expect(category.fdv).toBe('Заявка');

    const templateTypes = await rows<{ id: number; dv: string }>(database.db, sql`select id, dv from dict_template_types order by id`);
    expect(templateTypes.map((t) => t.dv)).toEqual(['certificate', 'program', 'regList', 'page', 'notification', 'consent', 'contract']);
  });

  it('has the 89 regions with distinct codes', async () => {
    const [row] = await rows<{ n: number; codes: number }>(database.db, sql`select count(*)::int as n, count(distinct code)::int as codes from dict_regions`);
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
    const [contests] = await rows<{ n: number }>(database.db, sql`select count(*)::int as n from services where dict_type_id = ${KnownIds.contestServiceType}`);
    expect(contests.n).toBeGreaterThan(0);
  });

  it('creates the demo operator and user with argon2 hashes', async () => {
    const demo = await rows<{ email: string; role: number; password: string; profiles: number }>(
      database.db,
      sql`select u.email, u.role, u.password, (select count(*)::int from user_profiles up where up.user_id = u.id) as profiles
          from users u where u.email in (${credentials.operator.email}, ${credentials.user.email}) order by u.role`,
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

  it('gives the demo user a lived-in cabinet through the real rules', async () => {
    const [user] = await rows<{ id: number }>(database.db, sql`select id from users where email = ${credentials.user.email}`);
    const entries = await rows<{
      status: number;
      price: string;
      is_thesis_needed: boolean;
      thesis: number;
      package: string | null;
      number: string;
      created_at: Date;
    }>(
      database.db,
      sql`select e.status, e.price, s.is_thesis_needed, (select count(*)::int from entry_theses t where t.entry_id = e.id) as thesis, pe.title as package, e.number, e.created_at
          from entries e join services s on s.id = e.service_id left join package_enrollments pe on pe.id = e.package_enrollment_id
          where e.created_by = ${user.id} and e.deleted_at is null order by e.id`,
    );
    expect(new Set(entries.map((e) => e.status))).toEqual(new Set([1, 2, 3]));
    expect(entries.some((e) => e.status === 1 && e.is_thesis_needed && e.thesis === 0)).toBe(true);
    expect(entries.filter((e) => e.package).every((e) => e.status === 2)).toBe(true);
    expect(entries.filter((e) => e.package)).toHaveLength(3);
    expect(entries.some((e) => Number(e.price) === 0)).toBe(true);
    // Numbers carry the month the entry was made in.
    for (const e of entries) {
      const m = new Date(new Date(e.created_at).getTime() + 3 * 3600_000);
      expect(e.number.slice(0, 4)).toBe(`${String(m.getUTCFullYear()).slice(2)}${String(m.getUTCMonth() + 1).padStart(2, '0')}`);
    }
    const [counts] = await rows<{ payments: number; package_payments: number; notes: number; reviews: number }>(
      database.db,
      sql`select (select count(*)::int from payments where user_id = ${user.id}) as payments,
            (select count(*)::int from payments where user_id = ${user.id} and description like 'Пакет услуг%') as package_payments,
            -- notifications, and events whose notification the jobs deliver after start
            (select count(*)::int from notifications where user_id = ${user.id})
              + (select count(*)::int from event_outbox where user_id = ${user.id} and notified_at is null) as notes,
            (select count(*)::int from reviews where user_id = ${user.id}) as reviews`,
    );
    expect(counts).toMatchObject({ package_payments: 1, reviews: 1 });
    expect(counts.payments).toBeGreaterThanOrEqual(3);
    expect(counts.notes).toBeGreaterThanOrEqual(6);
    // Months of other clients' entries and payments for the operator.
    const months = await rows<{ n: number }>(database.db, sql`select count(distinct to_char(created_at, 'YYYY-MM'))::int as n from entries`);
    expect(months[0].n).toBeGreaterThanOrEqual(11);
    const [paid] = await rows<{ n: number }>(database.db, sql`select count(*)::int as n from payments where pay_type <> 3`);
    expect(paid.n).toBeGreaterThan(20);
  });

  it('seeds releases of the journal subtypes, prices for 1-4 authors of every publication subtype and pending reviews', async () => {
    const [c] = await rows<{ releases: number; hidden_published: number; prices: number; subtypes: number; pending: number }>(
      database.db,
      sql`select (select count(*)::int from publication_releases where dict_service_subtype_id in (4, 6)) as releases,
            (select count(*)::int from publication_releases where is_hidden and is_published) as hidden_published,
            (select count(*)::int from publication_prices) as prices,
            (select count(*)::int from dict_service_subtypes where is_publication) as subtypes,
            (select count(*)::int from reviews where status = 0 and deleted_at is null) as pending`,
    );
    expect(c.releases).toBe(8);
    expect(c.hidden_published).toBe(2);
    expect(c.prices).toBe(c.subtypes * 4);
    expect(c.pending).toBe(3);
  });

  it('lets a dictionary row be added without an id after seeding', async () => {
    const [created] = await database.db.insert(dictProfiles).values({ fdv: 'Новый профиль', color: 'gray' }).returning();
    const [max] = await rows<{ id: number }>(database.db, sql`select max(id)::int as id from dict_profiles`);
    expect(created.id).toBe(max.id);
    expect(created.id).toBeGreaterThan(11);
  });
});
