// A lived-in demo outside production: the demo user's cabinet with entries in every status, a paid
// package, payments, notifications and a review; and months of other clients' entries and payments
// for the operator's lists and statistics. Everything goes through the rules real requests use
// (entry creation, package enrolment, marking paid, status moves); only the dates are then moved
// into the past, with the entry numbers that carry the month.
import { sql } from 'drizzle-orm';
import { PayType, Role } from '@edu/domain/common/codes';
import { defaultExtramural } from '@edu/domain/entries/entry';
import { rows, type Queryable } from '../../platform/db.ts';
import type { AuthUser } from '../../platform/auth.ts';
import { createEntryIn } from '../../features/entries/entry-rules.ts';
import { moveEntryStatus } from '../../features/entries/entry-status.ts';
import { markPaidIn } from '../../features/payments/payment-rules.ts';
import { enrollPackageIn } from '../../features/service-packages/enroll-package.ts';
import { loadPackages } from '../../features/service-packages/load-packages.ts';
import { reviews, users } from '../schema/index.ts';
import { hashPassword } from '../../platform/passwords.ts';
import { seedDemoPublicationActivity } from './demo-publications.ts';
import { entryNumber } from '../../features/entries/entry-rules.ts';

const DAY = 86_400_000;

interface DemoServiceRow {
  id: number;
  title: string;
  participation_type: number;
  is_done: boolean;
  is_publication: boolean;
  section_ids: number[] | null;
}

/** Other clients of the centre, for the operator's lists. */
const CLIENTS: Array<[string, string, string, string]> = [
  ['Соколова', 'Елена', 'Андреевна', 'МБДОУ Детский сад № 17'],
  ['Кузнецов', 'Дмитрий', 'Игоревич', 'ГБОУ Лицей № 239'],
  ['Попова', 'Наталья', 'Сергеевна', 'МАОУ СОШ № 4 г. Пскова'],
  ['Васильева', 'Ольга', 'Николаевна', 'ГБОУ Гимназия № 56'],
  ['Морозов', 'Алексей', 'Викторович', 'МБОУ СОШ № 12 г. Твери'],
  ['Новикова', 'Ирина', 'Павловна', 'ГБУ ДО ДДТ «Современник»'],
  ['Фёдорова', 'Татьяна', 'Алексеевна', 'МБДОУ Детский сад № 5 «Солнышко»'],
  ['Волков', 'Сергей', 'Михайлович', 'ГБПОУ Колледж информационных технологий'],
  ['Алексеева', 'Анна', 'Дмитриевна', 'МБОУ Гимназия № 2 г. Вологды'],
  ['Лебедева', 'Светлана', 'Юрьевна', 'ГБОУ СОШ № 601'],
  ['Семёнова', 'Юлия', 'Олеговна', 'МАОУ Лицей № 8 г. Новгорода'],
  ['Егоров', 'Павел', 'Андреевич', 'ГБОУ ЦО № 1453'],
  ['Павлова', 'Марина', 'Ивановна', 'МБОУ СОШ № 7 г. Петрозаводска'],
  ['Козлова', 'Валентина', 'Петровна', 'МБДОУ Детский сад № 44'],
];

/** A small deterministic generator: the same demo on every machine. */
function random(seed: number) {
  let x = seed;
  return () => {
    x = (x * 1103515245 + 12345) % 2147483648;
    return x / 2147483648;
  };
}

/** Moves an entry (and what was written about it) to the day it was really made. */
async function backdate(db: Queryable, entryIds: number[], createdAt: Date, paidAt: Date | null): Promise<void> {
  for (const id of entryIds) {
    const [e] = await rows<{ number: string; created_by: number }>(db, sql`select number, created_by from entries where id = ${id}`);
    const number = entryNumber(id, createdAt);
    await db.execute(sql`update entries set number = ${number}, created_at = ${createdAt}, updated_at = ${paidAt ?? createdAt},
      paid_at = case when paid_at is null then null else ${paidAt ?? createdAt}::timestamptz end where id = ${id}`);
    if (number !== e.number) {
      await db.execute(sql`update notifications set text = replace(text, ${e.number}, ${number}), text_clear = replace(text_clear, ${e.number}, ${number}),
        url = replace(url, ${e.number}, ${number}) where user_id = ${e.created_by}`);
      await db.execute(sql`update payments set description = replace(description, ${e.number}, ${number})
        where id in (select payment_id from payment_entries where entry_id = ${id})`);
    }
    await db.execute(sql`update change_logs set created_at = ${createdAt} where type = 'entry' and entity_id = ${id}`);
  }
  const list = sql.join(
    entryIds.map((i) => sql`${i}`),
    sql`, `,
  );
  if (paidAt)
    await db.execute(sql`update payments set created_at = ${paidAt} where id in (select payment_id from payment_entries where entry_id in (${list}))`);
}

/** The newest notifications of a user, dated like the events they tell about. */
async function datedNotifications(db: Queryable, userId: number, from: number, at: Date): Promise<void> {
  await db.execute(sql`update notifications set created_at = ${at} where user_id = ${userId} and id > ${from}`);
}

async function lastNotificationId(db: Queryable, userId: number): Promise<number> {
  const [r] = await rows<{ id: number | null }>(db, sql`select max(id) as id from notifications where user_id = ${userId}`);
  return r.id ?? 0;
}

export async function seedDemoActivity(db: Queryable, o: { now: Date; password: string; operatorId: number; userId: number }): Promise<void> {
  const now = o.now.getTime();
  const operator: AuthUser = { id: o.operatorId, role: Role.operator, tokenId: 0, impersonatorId: null };
  const servicesList = await rows<DemoServiceRow & { key_title: string }>(
    db,
    sql`select s.id, s.title, s.participation_type, s.is_done, s.is_publication,
          (select array_agg(ss.id order by ss.id) from service_sections ss where ss.service_id = s.id and ss.deleted_at is null) as section_ids
        from services s where s.deleted_at is null order by s.id`,
  );
  const byTitle = (part: string) => {
    const s = servicesList.find((x) => x.title.includes(part));
    if (!s) throw new Error(`demo service "${part}" is missing`);
    return s;
  };
  /** An entry through the entry rules: by the client, or by the operator for a finished service. */
  const apply = async (clientId: number, s: DemoServiceRow, section = 0, q: Queryable = db) => {
    const client: AuthUser = { id: clientId, role: Role.user, tokenId: 0, impersonatorId: null };
    const by = s.is_done || s.is_publication ? operator : client;
    return createEntryIn(
      q,
      by,
      { service_id: s.id, section_id: s.section_ids?.[section] ?? null, pay_type: PayType.bank, is_extramural: defaultExtramural(s.participation_type) },
      { ownerId: clientId },
    );
  };
  const at = (daysAgo: number, hour = 11) => new Date(now - daysAgo * DAY + (hour - 12) * 3600_000);

  // The demo user: one of each state.
  const u = o.userId;
  let mark = await lastNotificationId(db, u);
  const done = await apply(u, byTitle('Инклюзивное образование'), 0);
  await markPaidIn(db, operator, done, PayType.office);
  await moveEntryStatus(db, { entryId: done, to: 3, by: operator.id });
  await backdate(db, [done], at(48), at(46));
  await datedNotifications(db, u, mark, at(46));

  mark = await lastNotificationId(db, u);
  const [pkg] = await loadPackages(db, sql`title = 'Пакет «Учитель начальных классов»'`, u);
  const client: AuthUser = { id: u, role: Role.user, tokenId: 0, impersonatorId: null };
  const pkgIds = await enrollPackageIn(db, client, pkg, {});
  await markPaidIn(db, operator, pkgIds[0], PayType.bank);
  await backdate(db, pkgIds, at(30), at(29));
  await datedNotifications(db, u, mark, at(29));

  mark = await lastNotificationId(db, u);
  const firstAid = await apply(u, byTitle('первой помощи'), 1);
  await markPaidIn(db, operator, firstAid, PayType.bank);
  await backdate(db, [firstAid], at(12), at(10));
  await datedNotifications(db, u, mark, at(10));

  mark = await lastNotificationId(db, u);
  const free = await apply(u, byTitle('Формирующее оценивание'));
  await backdate(db, [free], at(6), at(6));
  await datedNotifications(db, u, mark, at(6));

  mark = await lastNotificationId(db, u);
  const conference = await apply(u, byTitle('традиции и инновации'), 0);
  await backdate(db, [conference], at(3), null);
  await datedNotifications(db, u, mark, at(3));
  // Its theses are still awaited (the banner of My entries).

  const contest = await apply(u, byTitle('Копилка педагогического опыта'), 0);
  await backdate(db, [contest], at(1), null);

  await db.insert(reviews).values({
    user_id: u,
    text: 'Спасибо за курс по ФГОС: много практики, понятные шаблоны рабочей программы. Буду рекомендовать коллегам!',
    status: 1,
    created_at: at(20),
    updated_at: at(19),
  });

  // Other clients over the last twelve months: the operator's lists and statistics.
  const rnd = random(20_26);
  const password = await hashPassword(o.password);
  const choosable = servicesList.filter((s) => !s.title.includes('Переподготовка'));
  let spread = 0;
  for (const [i, [last, first, middle, org]] of CLIENTS.entries()) {
    const [c] = await db
      .insert(users)
      .values({
        last_name: last,
        first_name: first,
        middle_name: middle,
        organization: org,
        job_title: i % 3 === 0 ? 'Воспитатель' : i % 3 === 1 ? 'Учитель' : 'Методист',
        email: `demo-client-${i + 1}@example.com`,
        phone: `+7 (911) 100-${String(10 + i).padStart(2, '0')}-${String(20 + i).padStart(2, '0')}`,
        role: Role.user,
        password,
        created_at: at(370 - i * 5),
      })
      .onConflictDoNothing()
      .returning({ id: users.id });
    if (!c) continue;
    const picks = [...choosable].sort(() => rnd() - 0.5).slice(0, 2 + Math.floor(rnd() * 4));
    for (const s of picks) {
      // Spread over the whole year, so every month of the operator's charts has entries.
      const daysAgo = ((spread++ * 37) % 355) + 2 + Math.floor(rnd() * 5);
      const section = Math.floor(rnd() * (s.section_ids?.length ?? 1));
      // A full section refuses the entry, as it would for a real client: then this client skips it.
      const id = await db.transaction((sp) => apply(c.id, s, section, sp)).catch(() => null);
      if (id === null) continue;
      const paid = daysAgo > 20 ? rnd() < 0.85 : rnd() < 0.5;
      const [{ price }] = await rows<{ price: string }>(db, sql`select price from entries where id = ${id}`);
      if (paid && Number(price) > 0) await markPaidIn(db, operator, id, rnd() < 0.6 ? PayType.bank : PayType.office);
      if (paid && s.is_done) await moveEntryStatus(db, { entryId: id, to: 3, by: operator.id, silent: true });
      const created = at(daysAgo, 9 + Math.floor(rnd() * 9));
      await backdate(db, [id], created, paid ? new Date(created.getTime() + Math.floor(rnd() * 3 + 1) * DAY) : null);
    }
    await db.execute(sql`update notifications set created_at = ${at(3)} where user_id = ${c.id}`);
  }
  const others = await rows<{ id: number }>(db, sql`select id from users where email like 'demo-client-%' order by id limit 3`);
  await seedDemoPublicationActivity(db, { now: o.now, operatorId: o.operatorId, userId: u, otherUserIds: others.map((r) => r.id) });
}
