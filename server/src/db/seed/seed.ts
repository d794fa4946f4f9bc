// Seeding: dictionaries on every start (idempotent, never overwrites operator edits) and a demo
// catalogue with two demo accounts outside production. The caller holds the startup lock and prints.
import { getTableName, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { hashPassword } from '../../platform/passwords.ts';
import { rows, type Queryable } from '../../platform/db.ts';
import {
  dictDocumentTypes,
  dictEvents,
  dictMacroses,
  dictMacrosCategories,
  dictProfiles,
  dictPublicationCategories,
  dictRegions,
  dictServiceSubtypes,
  dictServiceTypes,
  dictTemplateTypes,
  leadings,
  serviceLeadings,
  servicePackageServices,
  servicePackages,
  serviceProfiles,
  serviceSections,
  services,
  userProfiles,
  users,
} from '../schema/index.ts';
import {
  documentTypesData,
  eventNotificationTemplatesData,
  eventsData,
  replacedEventContents,
  requotedEventTexts,
  requotedNotificationTexts,
  leadingsData,
  macroCategoriesData,
  macrosesData,
  profilesData,
  publicationCategoriesData,
  regionsData,
  serviceSubtypesData,
  serviceTypesData,
  templateTypesData,
} from './dictionaries-data.ts';
import { seedDemoActivity } from './demo-activity.ts';
import { insertDemoTemplates } from './demo-templates.ts';
import { seedDemoPendingReviews, seedDemoPublicationDictionaries } from './demo-publication-dictionaries.ts';
import { seedDemoRubrics } from './demo-publications.ts';
import { demoOperator, demoPackages, demoServices, demoUser, type DemoService, type DemoUser } from './demo-data.ts';

export interface DemoCredentials {
  operator: { email: string; password: string };
  user: { email: string; password: string };
}

/** Dictionary tables with explicit ids, in foreign-key order. */
const dictionaryTables: PgTable[] = [
  dictProfiles,
  dictServiceTypes,
  dictServiceSubtypes,
  dictMacrosCategories,
  dictMacroses,
  dictTemplateTypes,
  dictEvents,
  dictPublicationCategories,
  dictDocumentTypes,
  dictRegions,
  leadings,
];

/** Inserts every dictionary row whose id is not there yet, then moves the id sequences past them. */
export async function seedDictionaries(db: Queryable): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(dictProfiles).values(profilesData).onConflictDoNothing();
    await tx.insert(dictServiceTypes).values(serviceTypesData).onConflictDoNothing();
    await tx.insert(dictServiceSubtypes).values(serviceSubtypesData).onConflictDoNothing();
    await tx.insert(dictMacrosCategories).values(macroCategoriesData).onConflictDoNothing();
    // The macro catalogue is defined by the code that fills it: kept up to date on every start.
    await tx
      .insert(dictMacroses)
      .values(macrosesData)
      .onConflictDoUpdate({
        target: dictMacroses.id,
        set: { fdv: sql`excluded.fdv`, description: sql`excluded.description`, dict_category_id: sql`excluded.dict_category_id` },
      });
    await tx.insert(dictTemplateTypes).values(templateTypesData).onConflictDoNothing();
    await tx.insert(dictEvents).values(eventsData).onConflictDoNothing();
    for (const r of replacedEventContents) await tx.execute(sql`update dict_events set content = ${r.now} where id = ${r.eventId} and content = ${r.old}`);
    for (const r of requotedEventTexts) {
      const column = sql.identifier(r.column);
      await tx.execute(sql`update dict_events set ${column} = ${r.now} where id = ${r.eventId} and ${column} = ${r.old}`);
    }
    await tx.insert(dictPublicationCategories).values(publicationCategoriesData).onConflictDoNothing();
    await tx.insert(dictDocumentTypes).values(documentTypesData).onConflictDoNothing();
    await tx.insert(dictRegions).values(regionsData).onConflictDoNothing();
    await tx.insert(leadings).values(leadingsData).onConflictDoNothing();
    for (const table of dictionaryTables) await resetIdSequence(tx, getTableName(table));
    await seedEventNotificationTemplates(tx);
    for (const r of requotedNotificationTexts)
      await tx.execute(sql`update templates set content = ${r.now} where dict_type_id = 5 and event_id = ${r.eventId} and content = ${r.old}`);
  });
}

/**
 * The notification template (type 5) of each event, once: a template linked to its event is made
 * only when the event has none yet, so operators' later edits and choices are kept.
 */
async function seedEventNotificationTemplates(db: Queryable): Promise<void> {
  for (const t of eventNotificationTemplatesData) {
    const made = await rows<{ id: number }>(
      db,
      sql`insert into templates (title, content, dict_type_id, event_id)
          select ${t.title}, ${t.content}, 5, ${t.event_id}
          where not exists (select 1 from templates where dict_type_id = 5 and event_id = ${t.event_id})
          returning id`,
    );
    if (made[0]) await db.execute(sql`update dict_events set template_id = ${made[0].id} where id = ${t.event_id} and template_id is null`);
  }
}

/**
 * Makes the next generated id max(id) + 1 (1 on an empty table). Works for identity columns
 * ("generated by default as identity") as well as serial ones, on PostgreSQL 15 and PGlite.
 */
export async function resetIdSequence(db: Queryable, table: string): Promise<void> {
  await db.execute(sql`select setval(pg_get_serial_sequence(${table}, 'id'), coalesce((select max(id) from ${sql.identifier(table)}), 0) + 1, false)`);
}

/**
 * Demo accounts and catalogue, all in one transaction. Needs the dictionaries. Adds nothing on a
 * second run: accounts only when the demo operator is missing, the catalogue only when there are no services.
 */
export async function seedDemo(db: Queryable, opts: { password: string; now?: Date }): Promise<DemoCredentials> {
  const now = opts.now ?? new Date();
  await db.transaction(async (tx) => {
    if (!(await userExists(tx, demoOperator.email))) {
      const password = await hashPassword(opts.password);
      await insertDemoUser(tx, demoOperator, password);
      await insertDemoUser(tx, demoUser, password);
    }
    if (await hasNoServices(tx)) {
      await insertDemoCatalogue(tx, now);
      await seedDemoRubrics(tx);
      await seedDemoPublicationDictionaries(tx, { now });
      // A fresh demo database: a lived-in cabinet for the demo user and months of work for the operator.
      const [operator] = await rows<{ id: number }>(tx, sql`select id from users where lower(email) = ${demoOperator.email.toLowerCase()}`);
      const [user] = await rows<{ id: number }>(tx, sql`select id from users where lower(email) = ${demoUser.email.toLowerCase()}`);
      if (operator && user) await seedDemoActivity(tx, { now, password: opts.password, operatorId: operator.id, userId: user.id });
      await seedDemoPendingReviews(tx, { now });
    }
  });
  return {
    operator: { email: demoOperator.email.toLowerCase(), password: opts.password },
    user: { email: demoUser.email.toLowerCase(), password: opts.password },
  };
}

async function userExists(db: Queryable, email: string): Promise<boolean> {
  const found = await rows<{ id: number }>(db, sql`select id from users where lower(email) = ${email.toLowerCase()} limit 1`);
  return found.length > 0;
}

async function hasNoServices(db: Queryable): Promise<boolean> {
  const [row] = await rows<{ n: number }>(db, sql`select count(*)::int as n from services`);
  return Number(row?.n ?? 0) === 0;
}

async function insertDemoUser(db: Queryable, user: DemoUser, passwordHash: string): Promise<void> {
  const { profileIds, ...fields } = user;
  const [created] = await db
    .insert(users)
    .values({ ...fields, email: fields.email.toLowerCase(), password: passwordHash })
    .onConflictDoNothing()
    .returning({ id: users.id });
  if (!created || profileIds.length === 0) return;
  await db.insert(userProfiles).values(profileIds.map((dict_profile_id) => ({ user_id: created.id, dict_profile_id })));
}

async function insertDemoCatalogue(db: Queryable, now: Date): Promise<void> {
  // The demo site's Joomla categories and tags (101+, 201+: the e2e fake site has them), where none are set.
  await db.execute(sql`update dict_service_types set joomla_category_id = 100 + id where joomla_category_id is null`);
  await db.execute(sql`update dict_profiles set joomla_tag_id = 200 + id where joomla_tag_id is null`);
  const created = new Map<string, { id: number; price: number; points: number }>();
  for (const service of demoServices(now)) {
    const id = await insertDemoService(db, service);
    created.set(service.key, { id, price: Number(service.price ?? 0), points: service.points ?? 0 });
  }
  await insertDemoTemplates(db);
  for (const { serviceKeys, ...pkg } of demoPackages) {
    const items = serviceKeys.map((key) => {
      const item = created.get(key);
      if (!item) throw new Error(`Demo package refers to unknown service ${key}`);
      return item;
    });
    const oldPrice = items.reduce((sum, item) => sum + item.price, 0);
    const points = items.reduce((sum, item) => sum + item.points, 0);
    const [row] = await db
      .insert(servicePackages)
      .values({ ...pkg, old_price: oldPrice, points })
      .returning({ id: servicePackages.id });
    await db.insert(servicePackageServices).values(items.map((item, position) => ({ service_package_id: row.id, service_id: item.id, position })));
  }
}

async function insertDemoService(db: Queryable, service: DemoService): Promise<number> {
  const { key: _key, sections = [], profileIds, leadingIds, ...fields } = service;
  const [row] = await db.insert(services).values(fields).returning({ id: services.id });
  if (sections.length > 0) await db.insert(serviceSections).values(sections.map((title) => ({ service_id: row.id, title })));
  if (profileIds.length > 0) {
    await db.insert(serviceProfiles).values(profileIds.map((dict_profile_id) => ({ service_id: row.id, dict_profile_id })));
  }
  if (leadingIds.length > 0) {
    await db.insert(serviceLeadings).values(leadingIds.map((leading_id) => ({ service_id: row.id, leading_id })));
  }
  return row.id;
}
