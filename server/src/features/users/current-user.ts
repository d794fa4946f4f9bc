import { sql, type Placeholder, type SQL } from 'drizzle-orm';
import { formatDate } from '@edu/domain/common/format';
import type { CurrentUser } from '@edu/domain/users/current-user';
import { compileStatement, type Database } from '../../platform/db.ts';
import { toUserDetails, USER_COLUMNS, type UserDetailsRow } from './user-details.ts';
import { isOperator } from '../../platform/access.ts';

interface Row extends UserDetailsRow {
  avatar_id: number | null;
  contract_step: number | null;
  entries_unpaid_num: number;
  points: number;
  future_points: number;
  closest_title: string | null;
  closest_begda: Date | string | null;
  documents_allowed: boolean;
  contract_allowed: boolean;
  impersonator: { id: number; fio: string } | null;
}

/**
 * The current user with its computed fields (spec 01 §3), in one round trip: profiles, entry
 * counters and sums over the user's non-deleted entries, the nearest upcoming service.
 * entries_num counts all entries; points are those of done entries; future_points of paid ones;
 * left_sum is the price of unpaid ones.
 */
/** Who: a user by id, or the live session of a token hash (GET /api/get answers in one round trip). */
export type Who = { userId: number } | { tokenHash: string };
/** Who, or the placeholder of a statement rendered once. */
type WhoSlot = { userId: number | Placeholder } | { tokenHash: string | Placeholder };

function meCte(who: WhoSlot) {
  return 'userId' in who
    ? sql`select ${who.userId}::int as user_id, null::int as token_id, null::timestamptz as last_used_at, null::int as impersonator_id`
    : sql`select t.user_id, t.id as token_id, t.last_used_at, t.impersonator_id from access_tokens t join users x on x.id = t.user_id
          where t.token_hash = ${who.tokenHash} and t.revoked_at is null and t.expires_at > now() and x.deleted_at is null`;
}

export interface LoadedUser {
  user: CurrentUser;
  tokenId: number | null;
  lastUsedAt: Date | string | null;
}

/** The two statements, rendered once (GET /api/get runs one on every cabinet start). */
const BY_ID = compileStatement('current_user_by_id', currentUserQuery({ userId: sql.placeholder('who') }));
const BY_TOKEN = compileStatement('current_user_by_token', currentUserQuery({ tokenHash: sql.placeholder('who') }));

/** Runs as a prepared statement on PostgreSQL: it is the query of every cabinet start. */
export async function loadCurrentUserBy(database: Database, who: Who): Promise<LoadedUser | null> {
  const [r] = await database.run<Row & { token_id: number | null; last_used_at: Date | string | null }>('userId' in who ? BY_ID : BY_TOKEN, {
    who: 'userId' in who ? who.userId : who.tokenHash,
  });
  return r ? { user: toCurrentUser(r), tokenId: r.token_id, lastUsedAt: r.last_used_at } : null;
}

/** The statement itself (also rendered by bench/ for pgbench, so both measure the same SQL). */
export function currentUserQuery(who: WhoSlot): SQL {
  return sql`
    with me as (${meCte(who)})
    select me.token_id, me.last_used_at, ${USER_COLUMNS}, u.avatar_id, u.contract_step,
      coalesce(e.entries_num, 0)::int as entries_num,
      coalesce(e.entries_unpaid_num, 0)::int as entries_unpaid_num,
      coalesce(e.left_sum, 0) as left_sum,
      coalesce(e.service_count, 0)::int as service_count,
      coalesce(e.points, 0)::int as points,
      coalesce(e.future_points, 0)::int as future_points,
      coalesce(e.documents_allowed, false) as documents_allowed,
      -- The contract scan may be uploaded once the contract data are complete (the rule of features/documents).
      (coalesce(e.documents_allowed, false) and coalesce(u.address, '') <> '' and u.birthday is not null and u.snils is not null
        and exists (select 1 from identity_documents d where d.user_id = u.id)
        and (select count(distinct ud.kind) from user_documents ud join files f on f.id = ud.file_id and f.deleted_at is null
             where ud.user_id = u.id and ud.kind in ('passport', 'education', 'snils', 'consent')) = 4) as contract_allowed,
      e.closest_titles[1] as closest_title, e.closest_begda,
      (select json_build_object('id', o.id, 'fio', concat_ws(' ', o.last_name, o.first_name, o.middle_name)) from users o where o.id = me.impersonator_id) as impersonator
    from me join users u on u.id = me.user_id
    left join lateral (
      select count(*) as entries_num,
        count(*) filter (where en.status = 1) as entries_unpaid_num,
        sum(en.price) filter (where en.status = 1) as left_sum,
        count(*) filter (where en.status in (2, 3)) as service_count,
        sum(s.points) filter (where en.status = 3) as points,
        sum(s.points) filter (where en.status = 2) as future_points,
        bool_or(t.is_contract_needed) as documents_allowed,
        -- The nearest upcoming service, from the same scan of the user's entries.
        min(s.begda) filter (where s.begda >= now()) as closest_begda,
        array_agg(s.title order by s.begda) filter (where s.begda >= now()) as closest_titles
      from entries en
      join services s on s.id = en.service_id
      join dict_service_types t on t.id = s.dict_type_id
      where en.created_by = u.id and en.deleted_at is null
    ) e on true
`;
}

export async function loadCurrentUser(database: Database, userId: number): Promise<CurrentUser | null> {
  return (await loadCurrentUserBy(database, { userId }))?.user ?? null;
}

function toCurrentUser(r: Row): CurrentUser {
  // Added to the details object, not spread with them into a new literal: in V8 that spread made
  // this the hottest line of GET /api/get (about 25 times the cost; the keys come in the same order).
  return Object.assign(toUserDetails(r), {
    email: r.email,
    // Only an operator sees the note (it is the operators' note about a user).
    note: isOperator(r) ? r.note : null,
    avatar_id: r.avatar_id,
    entries_unpaid_num: r.entries_unpaid_num,
    future_points: r.future_points,
    points: r.points,
    closestService: r.closest_title && r.closest_begda ? { title: r.closest_title, begda_formatted: formatDate(r.closest_begda) } : null,
    is_documents_upload_allowed: r.documents_allowed,
    is_contract_allowed: r.contract_allowed,
    contract_step: r.contract_step,
    impersonator: r.impersonator ?? null,
  });
}
