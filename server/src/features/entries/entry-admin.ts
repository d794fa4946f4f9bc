import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { EntryStatus, KnownIds, PayType, Role } from '@edu/domain/common/codes';
import { Messages } from '@edu/domain/common/messages';
import { EntryMessages } from '@edu/domain/entries/entry';
import { EntryAdminMessages, GUESTS_PAGE, type Guest } from '@edu/domain/entries/entry-admin';
import { competitionMembers, entries, users } from '../../db/schema/index.ts';
import type { AuthUser } from '../../platform/auth.ts';
import { logChange } from '../../platform/change-log.ts';
import { rows, type Db, type Queryable } from '../../platform/db.ts';
import { AppError, fieldError, notFound } from '../../platform/errors.ts';
import { escapeHtml } from '../../platform/html.ts';
import { notify } from '../../platform/notify.ts';
import { moveEntryStatus } from './entry-status.ts';
import { checkPlace, entryNumber, lockEntry, lockService } from './entry-rules.ts';
import { isGuest } from '../../platform/access.ts';

/** Completing needs a paid entry (1 -> 2 -> 3, through the one guarded status function). */
export async function completeEntry(db: Db, user: AuthUser, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const entry = await lockEntry(tx, id, user);
    if (entry.deleted_at) throw notFound(EntryMessages.entryNotFound);
    if (entry.status === EntryStatus.notPaid) throw new AppError(422, EntryAdminMessages.notPaidYet, { errors: {} });
    const moved = await moveEntryStatus(tx, { entryId: id, to: EntryStatus.done, by: user.id });
    if (moved.result !== 'moved') throw new AppError(422, EntryAdminMessages.alreadyDone, { errors: {} });
  });
}

/** Restores a soft-deleted entry, if its place (section, seats, one entry per client) is still free. */
export async function restoreEntry(db: Db, user: AuthUser, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const entry = await lockEntry(tx, id, user);
    if (!entry.deleted_at) return;
    const service = await lockService(tx, entry.service_id);
    if (!service) throw notFound(Messages.serviceNotFound);
    await checkPlace(tx, { service, sectionId: entry.section_id, userId: entry.created_by, exceptEntryId: id });
    await tx
      .update(entries)
      .set({ deleted_at: null, updated_at: new Date() })
      .where(sql`id = ${id}`);
    await logChange(tx, { type: 'entry', entityId: id, userId: user.id, before: { deleted_at: entry.deleted_at }, after: { deleted_at: null } });
  });
}

/** The competition participant of a contest entry (type 11): fio, title, comment, all required. */
export async function saveMember(db: Db, user: AuthUser, input: { entry_id: number; fio: string; title: string; comment: string }): Promise<void> {
  await db.transaction(async (tx) => {
    const entry = await lockEntry(tx, input.entry_id, user);
    if (entry.deleted_at) throw notFound(EntryMessages.entryNotFound);
    const [s] = await rows<{ dict_type_id: number }>(tx, sql`select dict_type_id from services where id = ${entry.service_id}`);
    if (s?.dict_type_id !== KnownIds.contestServiceType) throw new AppError(422, EntryAdminMessages.memberNotContest, { errors: {} });
    const [before] = await rows<{ fio: string; title: string; comment: string }>(
      tx,
      sql`select fio, title, comment from competition_members where entry_id = ${entry.id}`,
    );
    const values = { fio: input.fio, title: input.title, comment: input.comment };
    await tx
      .insert(competitionMembers)
      .values({ entry_id: entry.id, ...values })
      .onConflictDoUpdate({ target: competitionMembers.entry_id, set: values });
    const prefix = (v: Record<string, string> | undefined) => (v ? { member_fio: v.fio, member_title: v.title, member_comment: v.comment } : null);
    await logChange(tx, { type: 'entry', entityId: entry.id, userId: user.id, before: prefix(before), after: prefix(values) });
  });
}

/** Guests (role 3) who are not yet in the service, 50 at a time, by name, city and profiles. */
export async function listGuests(
  db: Db,
  q: { service_id: number; fio?: string; is_spb?: 0 | 1; profile?: string; page: number },
): Promise<{ data: Guest[]; total: number }> {
  const parts = [
    sql`u.role = ${Role.guest}`,
    sql`u.deleted_at is null`,
    sql`not exists (select 1 from entries e where e.created_by = u.id and e.service_id = ${q.service_id} and e.deleted_at is null)`,
  ];
  for (const word of (q.fio ?? '').split(/\s+/).filter(Boolean).slice(0, 3)) {
    const like = `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    parts.push(sql`(u.last_name ilike ${like} or u.first_name ilike ${like} or u.middle_name ilike ${like})`);
  }
  if (q.is_spb !== undefined) parts.push(sql`u.is_spb = ${Number(q.is_spb)}`);
  if (q.profile) {
    const ids = q.profile.split(',').map(Number);
    parts.push(
      sql`exists (select 1 from user_profiles up where up.user_id = u.id and up.dict_profile_id in (${sql.join(
        ids.map((i) => sql`${i}`),
        sql`, `,
      )}))`,
    );
  }
  const where = sql.join(parts, sql` and `);
  const [{ total }] = await rows<{ total: number }>(db, sql`select count(*)::int as total from users u where ${where}`);
  const data = await rows<Guest>(
    db,
    sql`select u.id, concat_ws(' ', u.last_name, u.first_name, u.middle_name) as fio, u.organization, u.job_title, u.is_spb
        from users u where ${where} order by u.last_name, u.first_name, u.id limit ${GUESTS_PAGE} offset ${(q.page - 1) * GUESTS_PAGE}`,
  );
  return { data, total };
}

/** A new guest: role 3, no password (guests never sign in), an address that can never receive mail. */
export async function createGuest(
  db: Queryable,
  input: { fio: string; organization?: string | null; job_title?: string | null; is_spb: number },
): Promise<number> {
  const [last, first = '', ...middle] = input.fio.split(/\s+/).filter(Boolean);
  const [row] = await db
    .insert(users)
    .values({
      // RFC 2606: '.invalid' is never a real domain; the users list shows no e-mail for guests.
      email: `guest-${randomBytes(8).toString('hex')}@guests.invalid`,
      last_name: last,
      first_name: first,
      middle_name: middle.join(' ') || null,
      organization: input.organization || null,
      job_title: input.job_title || null,
      is_spb: input.is_spb,
      role: Role.guest,
    })
    .returning({ id: users.id });
  return row.id;
}

/**
 * Adds a guest to a service (spec 02 §4 Guest entry): a done entry with the online pay type, free,
 * in the section the operator chose (required when the service has sections, like any entry),
 * written by the operator.
 */
/** The live section of a service with the fewest live entries (refunds not counted), the first of equals; null without sections. */
async function fewestSection(tx: Queryable, serviceId: number): Promise<number | null> {
  const [row] = await rows<{ id: number }>(
    tx,
    sql`select s.id from service_sections s
        left join entries e on e.section_id = s.id and e.deleted_at is null and e.status <> ${EntryStatus.refunded}
        where s.service_id = ${serviceId} and s.deleted_at is null
        group by s.id order by count(e.id), s.id limit 1`,
  );
  return row?.id ?? null;
}

/**
 * A guest's entry in a service: done, free, online pay type; in the operator's section or, without
 * one, the section with the fewest participants.
 */
export async function addGuestEntry(db: Queryable, operator: AuthUser, serviceId: number, guestId: number, sectionId: number | null): Promise<number> {
  return db.transaction(async (tx) => {
    const service = await lockService(tx, serviceId);
    if (!service) throw fieldError('service_id', Messages.serviceNotFound, Messages.serviceNotFound);
    const [guest] = await rows<{ id: number; role: number }>(tx, sql`select id, role from users where id = ${guestId} and deleted_at is null`);
    if (!guest || !isGuest(guest)) throw fieldError('user_id', EntryAdminMessages.guestOnly, EntryAdminMessages.guestOnly);
    const [already] = await rows<{ id: number }>(
      tx,
      sql`select id from entries where created_by = ${guestId} and service_id = ${serviceId} and deleted_at is null limit 1`,
    );
    if (already) throw fieldError('user_id', EntryAdminMessages.guestAlready, EntryAdminMessages.guestAlready);
    // Spec 02 §4: without the operator's choice a guest goes to the section with the fewest
    // participants (the first of equals); under the service lock, so parallel adds spread out.
    const section = sectionId ?? (await fewestSection(tx, serviceId));
    await checkPlace(tx, { service, sectionId: section, userId: guestId });
    const [{ id }] = await rows<{ id: number }>(tx, sql`select nextval(pg_get_serial_sequence('entries', 'id'))::int as id`);
    const now = new Date();
    const values = {
      id,
      number: entryNumber(id),
      created_by: guestId,
      author_id: operator.id,
      service_id: serviceId,
      section_id: section,
      pay_type: PayType.online,
      is_extramural: service.participation_type === 3 ? 1 : 0,
      price: 0,
      status: EntryStatus.done,
      paid_at: now,
      done_at: now,
    };
    await tx.insert(entries).values(values);
    await logChange(tx, { type: 'entry', entityId: id, userId: operator.id, before: null, after: values });
    await notify(tx, {
      userId: guestId,
      text: `Вы добавлены в услугу «${escapeHtml(service.title)}».`,
      icon: 'IconUserPlus',
      color: 'teal',
      url: '/user/entry',
    });
    return id;
  });
}
