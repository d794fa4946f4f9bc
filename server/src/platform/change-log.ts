import { sql, type SQL } from 'drizzle-orm';
import { formatRub } from '@edu/domain/common/format';
import { LOGGED_TEXT_MAX, loggedLongText, type ChangeDiff, type ChangeLogType } from '@edu/domain/logs/log';
import { presentDiff, referencedIds, type PresentedChange, type RefKind, type RefNames } from '@edu/domain/logs/log-fields';
import { changeLogs } from '../db/schema/index.ts';
import { currentImpersonator } from './auth.ts';
import { rows, type Queryable } from './db.ts';
import { intArray } from './list-query.ts';

type Values = Record<string, unknown>;

/** Never written to the log as values: a change shows only that it happened. */
const SECRET = new Set(['password', 'password_hash', 'token', 'token_hash']);
export const SECRET_MARK = '••••••';

/**
 * Identity numbers (152-FZ): the log keeps only their last three digits, so an operator sees that
 * the number changed and can tell which one it is without the log holding the number itself.
 */
const MASKED = new Set(['snils', 'passport_number']);

/** Every digit but the last three as «•», separators kept: «112-233-445 95» reads «•••-•••-••5 95». */
export function maskNumber(value: unknown): unknown {
  if (typeof value !== 'string' || value === '') return value;
  const digits = value.replace(/\D/g, '').length;
  let seen = 0;
  return value.replace(/\d/g, (d) => (++seen > digits - 3 ? d : '•'));
}

/**
 * The fields that changed between two versions of a row, ignoring id, user_id and timestamps.
 * Passwords and tokens show only that they changed; SNILS and passport numbers are masked; a text
 * longer than LOGGED_TEXT_MAX (a publication's 480 000 characters) is kept by its beginning and
 * length, so an edit's row is not twice the text (issue 29).
 */
export function diffOf(before: Values | null, after: Values | null): ChangeDiff {
  const ignored = new Set(['id', 'user_id', 'created_at', 'updated_at']);
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  const diff: ChangeDiff = {};
  for (const k of keys) {
    if (ignored.has(k)) continue;
    const o = normalise(before?.[k]);
    const n = normalise(after?.[k]);
    if (typeof o === 'string' || typeof n === 'string' ? o === n : JSON.stringify(o) === JSON.stringify(n)) continue;
    if (SECRET.has(k)) diff[k] = { old: o == null ? null : SECRET_MARK, new: n == null ? null : SECRET_MARK };
    else if (MASKED.has(k)) diff[k] = { old: maskNumber(o ?? null), new: maskNumber(n ?? null) };
    else diff[k] = { old: shortened(o ?? null), new: shortened(n ?? null) };
  }
  return diff;
}

const shortened = (v: unknown) => (typeof v === 'string' && v.length > LOGGED_TEXT_MAX ? loggedLongText(v) : v);

function normalise(v: unknown): unknown {
  return v instanceof Date ? v.toISOString() : v;
}

export interface ChangeLogEntry {
  type: ChangeLogType;
  entityId: number;
  /** Who acted; null is the system (jobs, the payment provider). */
  userId: number | null;
  before: Values | null;
  after: Values | null;
}

/**
 * Writes a change-log row of users, services, entries, payments or publications: call it with the
 * transaction of the change, so the change and its row commit together. Nothing is written when
 * nothing changed. In a "login as user" session the row also names the operator who acted
 * (impersonator_id, from the request's context), so the log shows both.
 */
export async function logChange(db: Queryable, entry: ChangeLogEntry): Promise<void> {
  const diff = diffOf(entry.before, entry.after);
  if (Object.keys(diff).length === 0) return;
  await logEvent(db, { type: entry.type, entityId: entry.entityId, userId: entry.userId, diff });
}

/** Many changes at once (an import's batch): one insert, the rows with nothing changed left out. */
export async function logChanges(db: Queryable, list: ChangeLogEntry[]): Promise<void> {
  const impersonator = currentImpersonator();
  const values = list
    .map((entry) => ({ entry, diff: diffOf(entry.before, entry.after) }))
    .filter(({ diff }) => Object.keys(diff).length > 0)
    .map(({ entry, diff }) => ({
      type: entry.type,
      entity_id: entry.entityId,
      user_id: entry.userId,
      impersonator_id: impersonator !== null && impersonator !== entry.userId ? impersonator : null,
      diff,
    }));
  if (values.length > 0) await db.insert(changeLogs).values(values);
}

/** A log row that is an event rather than a field change (e.g. an operator logging in as a user). */
export async function logEvent(db: Queryable, entry: { type: ChangeLogType; entityId: number; userId: number | null; diff: ChangeDiff }): Promise<void> {
  const impersonator = currentImpersonator();
  await db.insert(changeLogs).values({
    type: entry.type,
    entity_id: entry.entityId,
    user_id: entry.userId,
    impersonator_id: impersonator !== null && impersonator !== entry.userId ? impersonator : null,
    diff: entry.diff,
  });
}

const fullName = (alias: string) => sql.raw(`concat_ws(' ', ${alias}.last_name, ${alias}.first_name, ${alias}.middle_name)`);

/** How each kind of referenced record is named (one query per kind on a page). */
const NAME_OF: Record<RefKind, (ids: SQL) => SQL> = {
  user: (ids) => sql`select id, ${fullName('u')} as name from users u where id = any(${ids})`,
  service: (ids) => sql`select id, title as name from services where id = any(${ids})`,
  section: (ids) => sql`select id, title as name from service_sections where id = any(${ids})`,
  template: (ids) => sql`select id, title as name from templates where id = any(${ids})`,
  package: (ids) => sql`select id, title as name from service_packages where id = any(${ids})`,
  enrollment: (ids) =>
    sql`select pe.id, concat('«', p.title, '», покупка № ', pe.id) as name from package_enrollments pe join service_packages p on p.id = pe.service_package_id where pe.id = any(${ids})`,
  release: (ids) => sql`select id, title as name from publication_releases where id = any(${ids})`,
  category: (ids) => sql`select id, fdv as name from dict_publication_categories where id = any(${ids})`,
  serviceType: (ids) => sql`select id, fdv as name from dict_service_types where id = any(${ids})`,
  subtype: (ids) => sql`select id, fdv as name from dict_service_subtypes where id = any(${ids})`,
  profile: (ids) => sql`select id, fdv as name from dict_profiles where id = any(${ids})`,
  leading: (ids) => sql`select id, fio as name from leadings where id = any(${ids})`,
  region: (ids) => sql`select id, fdv as name from dict_regions where id = any(${ids})`,
  price: (ids) => sql`select id, authors_num, price from publication_prices where id = any(${ids})`,
  file: (ids) => sql`select id, name from files where id = any(${ids})`,
  entry: (ids) => sql`select id, concat('№ ', number) as name from entries where id = any(${ids})`,
};

async function refNames(db: Queryable, wanted: Map<RefKind, Set<number>>): Promise<RefNames> {
  const names: RefNames = new Map();
  for (const [kind, set] of wanted) {
    const found = await rows<{ id: number; name?: string; authors_num?: number; price?: string | number }>(db, NAME_OF[kind](intArray([...set])));
    names.set(kind, new Map(found.map((r) => [r.id, kind === 'price' ? `${r.authors_num} авт. — ${formatRub(Number(r.price))}` : (r.name ?? '')])));
  }
  return names;
}

/**
 * Reads log rows as operators do: looks up the names of every record the rows' diffs point at
 * (one query per kind) and answers a function that words one row's diff in Russian.
 */
export async function diffPresenter(
  db: Queryable,
  list: Array<{ type: ChangeLogType; diff: ChangeDiff }>,
): Promise<(row: { type: ChangeLogType; diff: ChangeDiff }) => PresentedChange[]> {
  const wanted = new Map<RefKind, Set<number>>();
  for (const r of list) referencedIds(r.type, r.diff, wanted);
  const names = await refNames(db, wanted);
  return (row) => presentDiff(row.type, row.diff, names);
}
