import { sql, type SQL } from 'drizzle-orm';
import { roleLabels, type RoleCode } from '@edu/domain/common/codes';
import { COUNT_CAP, type PageQuery, type SortValue } from '@edu/domain/common/pagination';
import { fullName } from '@edu/domain/users/current-user';
import { isGuestEmail, type ManagedUser, type UserLookup, type UserSortKey } from '@edu/domain/users/manager-user';
import { rows, type Database, type Queryable } from '../../platform/db.ts';
import {
  allOf,
  containsPattern,
  fioCondition,
  fioWords,
  fullNameExpression,
  listPage,
  listSort,
  sortSql,
  trigramsServe,
  when,
  type ListPage,
  type SortColumn,
} from '../../platform/list-query.ts';
import { toUserDetails, USER_COLUMNS, type UserDetailsRow } from './user-details.ts';

export interface UserFilters {
  id?: number;
  fio?: string;
  phone?: string;
  email?: string;
  role?: number;
  /** Work profile ids; 0 means 'not filled' (no profile at all). */
  profile?: number[];
  deleted?: boolean;
  is_spb?: number;
}

interface UserRow extends UserDetailsRow {
  has_password: boolean;
  erased_at: Date | string | null;
}

/** Columns of a user with their work profiles and entry figures (over entries not deleted). */
const SELECT = sql`select ${USER_COLUMNS}, (u.password is not null) as has_password, u.erased_at,
    coalesce(e.entries_num, 0)::int as entries_num, coalesce(e.service_count, 0)::int as service_count, coalesce(e.left_sum, 0) as left_sum`;

const FROM = sql`from users u left join lateral (
    select count(*) as entries_num, count(*) filter (where en.status in (2, 3)) as service_count, sum(en.price) filter (where en.status = 1) as left_sum
    from entries en where en.created_by = u.id and en.deleted_at is null) e on true`;

function toManagedUser(r: UserRow): ManagedUser {
  return {
    ...toUserDetails(r),
    email: isGuestEmail(r.email) ? null : r.email,
    has_password: r.has_password,
    erased_at: r.erased_at ? new Date(r.erased_at).toISOString() : null,
  };
}

/** The conditions of the users list (each filter on its own is served by an index; see bench/). */
export function userConditions(f: UserFilters): SQL {
  const digits = phoneDigits(f.phone ?? '');
  const profiles = f.profile ?? [];
  const chosen = profiles.filter((p) => p > 0);
  const byProfile: SQL[] = [];
  if (chosen.length)
    byProfile.push(
      sql`exists (select 1 from user_profiles up where up.user_id = u.id and up.dict_profile_id in (${sql.join(
        chosen.map((p) => sql`${p}`),
        sql`, `,
      )}))`,
    );
  // users.has_profile is kept by triggers on user_profiles (migration 0014); users_no_profile_idx serves it.
  if (profiles.includes(0)) byProfile.push(sql`not u.has_profile`);
  return allOf([
    f.deleted ? sql`u.deleted_at is not null` : sql`u.deleted_at is null`,
    when(f.id, (v) => sql`u.id = ${v}`),
    fioCondition(f.fio, 'u'),
    // The phone is stored formatted (+7 (999) 999-99-99): typed digits match in any position.
    digits ? sql`${PHONE_DIGITS} like ${containsPattern(digits)}` : null,
    when(f.email, (v) => sql`u.email ilike ${containsPattern(v)}`),
    when(f.role, (v) => sql`u.role = ${v}`),
    when(f.is_spb, (v) => sql`u.is_spb = ${v}`),
    byProfile.length ? sql`(${sql.join(byProfile, sql` or `)})` : null,
  ]);
}

/** The digits of the stored phone (+7 (999) 999-99-99 -> 79999999999); an index on it serves the filter. */
export const PHONE_DIGITS = sql`regexp_replace(u.phone, '[^0-9]', '', 'g')`;

/** The texts the LIKE patterns of `f` look for. */
function patternTexts(f: UserFilters): string[] {
  return [f.fio ?? '', f.phone ? phoneDigits(f.phone) : '', f.email ?? ''].filter(Boolean);
}

/** Typed digits as stored: an 11-digit number written with a leading 8 is the +7 one. */
function phoneDigits(typed: string): string {
  const d = typed.replace(/\D/g, '');
  return d.length === 11 && d.startsWith('8') ? `7${d.slice(1)}` : d;
}

/**
 * The users list's sorts (USER_SORTS). The full name is the expression of users_full_name_sort_idx
 * and the e-mail that of users_email_unique, so both walk an index; the amount due is computed per
 * user and needs every user's entries summed (about 3 s over 100 000 users and 1 000 000 entries:
 * narrow the list with a filter first).
 */
const SORTS: Record<UserSortKey, SortColumn> = {
  id: { sql: sql`u.id`, type: 'int' },
  fio: { sql: fullNameExpression('u'), type: 'text' },
  email: { sql: sql`lower(u.email)`, type: 'text' },
  created_at: { sql: sql`u.created_at`, type: 'timestamptz' },
  left_sum: { sql: sql`coalesce(e.left_sum, 0)`, type: 'numeric' },
};

/**
 * A name alone (the search operators use most), by date or id: the matches, their registration time
 * and their deletion are all in user_names, so the 1 KB users rows are not read for the candidates.
 */
function nameOnlyMatches(f: UserFilters, sortKey: UserSortKey): SQL | undefined {
  const words = fioWords(f.fio);
  const other = f.id || f.phone || f.email || f.role || (f.is_spb !== undefined && f.is_spb !== null) || (f.profile ?? []).length > 0;
  if (words.length === 0 || other || (sortKey !== 'created_at' && sortKey !== 'id')) return undefined;
  return sql`select n.user_id as id, n.created_at from user_names n
    where ${f.deleted ? sql`n.deleted_at is not null` : sql`n.deleted_at is null`}
      and ${sql.join(
        words.map((w) => sql`n.full_name like lower(${containsPattern(w)})`),
        sql` and `,
      )}`;
}

export async function listUsers(database: Database, f: UserFilters, page: PageQuery & { sort?: SortValue<UserSortKey> }): Promise<ListPage<ManagedUser>> {
  const where = userConditions(f);
  const byPattern = Boolean(f.fio || f.phone || f.email);
  const sort = listSort(page.sort, SORTS, '-created_at', sql`u.id`);
  const byName = nameOnlyMatches(f, sort.key);
  return listPage<UserRow, ManagedUser>(database, {
    select: SELECT,
    from: FROM,
    countFrom: sql`from users u`,
    where,
    order: sortSql(sort),
    page,
    map: toManagedUser,
    // 100 000 users: past 1 000 matches the total is 'more than 1 000' (as in the entry list).
    countCap: COUNT_CAP,
    // A name, phone or e-mail pattern matches a few users the planner cannot foresee: take them
    // from their trigram index first, then sort only them (not a walk of all users in list order).
    // (The amount due is not a column of users: that sort keeps the plain shape.)
    idsFirst: byName
      ? { matches: byName, alias: 'u', key: sql`u.id` }
      : byPattern && sort.key !== 'left_sum'
        ? { matches: sql`select u.id, u.last_name, u.first_name, u.middle_name, u.email, u.created_at from users u where ${where}`, alias: 'u', key: sql`u.id` }
        : undefined,
    // Planned once per connection, unless a pattern has no trigram for its index (trigramsServe).
    prepared: !byPattern || trigramsServe(patternTexts(f)),
  });
}

export async function findManagedUser(db: Queryable, id: number): Promise<ManagedUser | null> {
  const [row] = await rows<UserRow>(db, sql`${SELECT} ${FROM} where u.id = ${id}`);
  return row ? toManagedUser(row) : null;
}

/** POST /api/user/get-by-fio: active users whose name matches every typed word, best matches first. */
export async function findUsersByFio(db: Queryable, fio: string, role?: number, limit = 20): Promise<UserLookup[]> {
  const list = await rows<{
    id: number;
    email: string;
    last_name: string;
    first_name: string;
    middle_name: string | null;
    phone: string | null;
    organization: string | null;
    job_title: string | null;
    role: number;
  }>(
    db,
    sql`select u.id, u.email, u.last_name, u.first_name, u.middle_name, u.phone, u.organization, u.job_title, u.role
        from users u where ${allOf([sql`u.deleted_at is null`, fioCondition(fio, 'u'), when(role, (v) => sql`u.role = ${v}`)])}
        order by (lower(concat_ws(' ', u.last_name, u.first_name, u.middle_name)) like ${`${fio.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`}) desc, u.last_name, u.first_name, u.id
        limit ${limit}`,
  );
  return list.map((r) => {
    const role = r.role as RoleCode;
    return {
      id: r.id,
      fio: fullName(r),
      email: isGuestEmail(r.email) ? null : r.email,
      phone: r.phone,
      organization: r.organization,
      job_title: r.job_title,
      role,
      role_label: roleLabels[role] ?? '',
    };
  });
}

/** The stored columns the change log compares (profiles as a sorted id list). */
export async function userSnapshot(db: Queryable, id: number): Promise<Record<string, unknown> | null> {
  const [row] = await rows<Record<string, unknown>>(
    db,
    sql`select u.email, u.phone, u.last_name, u.first_name, u.middle_name, u.organization, u.job_title, u.learned_from_us,
          u.address, u.region, u.dict_region_id, u.country, u.postcode, u.note, u.role, u.is_spb, u.password, u.deleted_at,
          coalesce((select json_agg(up.dict_profile_id order by up.dict_profile_id) from user_profiles up where up.user_id = u.id), '[]'::json) as profiles
        from users u where u.id = ${id}`,
  );
  return row ?? null;
}
