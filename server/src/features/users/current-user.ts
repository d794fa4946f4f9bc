import { sql, type SQL } from 'drizzle-orm';
import { Role, roleLabels, type RoleCode } from '@edu/domain/common/codes';
import { formatDate } from '@edu/domain/common/format';
import { fullName, initialsOf, type CurrentUser, type ProfileBadge } from '@edu/domain/users/current-user';
import type { Database } from '../../platform/db.ts';

interface Row {
  id: number;
  email: string;
  last_name: string;
  first_name: string;
  middle_name: string | null;
  phone: string | null;
  organization: string | null;
  job_title: string | null;
  learned_from_us: string | null;
  address: string | null;
  region: string | null;
  dict_region_id: number | null;
  country: string | null;
  postcode: string | null;
  note: string | null;
  role: number;
  is_spb: number;
  avatar_id: number | null;
  avatar_key: string | null;
  contract_step: number | null;
  created_at: Date | string;
  deleted_at: Date | string | null;
  profiles: ProfileBadge[] | null;
  entries_num: number;
  entries_unpaid_num: number;
  left_sum: string | number;
  service_count: number;
  points: number;
  future_points: number;
  closest_title: string | null;
  closest_begda: Date | string | null;
  documents_allowed: boolean;
}

/**
 * The current user with its computed fields (spec 01 §3), in one round trip: profiles, entry
 * counters and sums over the user's non-deleted entries, the nearest upcoming service.
 * entries_num counts all entries; points are those of done entries; future_points of paid ones;
 * left_sum is the price of unpaid ones.
 */
/** Who: a user by id, or the live session of a token hash (GET /api/get answers in one round trip). */
export type Who = { userId: number } | { tokenHash: string };

function meCte(who: Who) {
  return 'userId' in who
    ? sql`select ${who.userId}::int as user_id, null::int as token_id, null::timestamptz as last_used_at`
    : sql`select t.user_id, t.id as token_id, t.last_used_at from access_tokens t join users x on x.id = t.user_id
          where t.token_hash = ${who.tokenHash} and t.revoked_at is null and t.expires_at > now() and x.deleted_at is null`;
}

export interface LoadedUser {
  user: CurrentUser;
  tokenId: number | null;
  lastUsedAt: Date | string | null;
}

/** Runs as a prepared statement on PostgreSQL: it is the query of every cabinet start. */
export async function loadCurrentUserBy(database: Database, who: Who): Promise<LoadedUser | null> {
  const [r] = await database.prepared<Row & { token_id: number | null; last_used_at: Date | string | null }>(
    'userId' in who ? 'current_user_by_id' : 'current_user_by_token',
    currentUserQuery(who),
  );
  return r ? { user: toCurrentUser(r), tokenId: r.token_id, lastUsedAt: r.last_used_at } : null;
}

/** The statement itself (also rendered by bench/ for pgbench, so both measure the same SQL). */
export function currentUserQuery(who: Who): SQL {
  return sql`
    with me as (${meCte(who)})
    select me.token_id, me.last_used_at, u.id, u.email, u.last_name, u.first_name, u.middle_name, u.phone, u.organization, u.job_title,
      u.learned_from_us, u.address, u.region, u.dict_region_id, u.country, u.postcode, u.note, u.role, u.is_spb,
      u.avatar_id, u.contract_step, u.created_at, u.deleted_at,
      (select f.storage_key from files f where f.id = u.avatar_id) as avatar_key,
      (select json_agg(json_build_object('id', p.id, 'fdv', p.fdv, 'color', p.color) order by p.id)
         from user_profiles up join dict_profiles p on p.id = up.dict_profile_id where up.user_id = u.id) as profiles,
      coalesce(e.entries_num, 0)::int as entries_num,
      coalesce(e.entries_unpaid_num, 0)::int as entries_unpaid_num,
      coalesce(e.left_sum, 0) as left_sum,
      coalesce(e.service_count, 0)::int as service_count,
      coalesce(e.points, 0)::int as points,
      coalesce(e.future_points, 0)::int as future_points,
      coalesce(e.documents_allowed, false) as documents_allowed,
      c.title as closest_title, c.begda as closest_begda
    from me join users u on u.id = me.user_id
    left join lateral (
      select count(*) as entries_num,
        count(*) filter (where en.status = 1) as entries_unpaid_num,
        sum(en.price) filter (where en.status = 1) as left_sum,
        count(*) filter (where en.status >= 2) as service_count,
        sum(s.points) filter (where en.status = 3) as points,
        sum(s.points) filter (where en.status = 2) as future_points,
        bool_or(t.is_contract_needed) as documents_allowed
      from entries en
      join services s on s.id = en.service_id
      join dict_service_types t on t.id = s.dict_type_id
      where en.created_by = u.id and en.deleted_at is null
    ) e on true
    left join lateral (
      select s.title, s.begda from entries en join services s on s.id = en.service_id
      where en.created_by = u.id and en.deleted_at is null and s.begda >= now()
      order by s.begda limit 1
    ) c on true
`;
}

export async function loadCurrentUser(database: Database, userId: number): Promise<CurrentUser | null> {
  return (await loadCurrentUserBy(database, { userId }))?.user ?? null;
}

function toCurrentUser(r: Row): CurrentUser {
  const role = r.role as RoleCode;
  return {
    id: r.id,
    email: r.email,
    fio: fullName(r),
    last_name: r.last_name,
    first_name: r.first_name,
    middle_name: r.middle_name,
    phone: r.phone,
    organization: r.organization,
    job_title: r.job_title,
    learned_from_us: r.learned_from_us,
    address: r.address,
    region: r.region,
    dict_region_id: r.dict_region_id,
    country: r.country,
    postcode: r.postcode,
    note: role === Role.operator ? r.note : null,
    role,
    role_label: roleLabels[role],
    is_spb: r.is_spb === 1 ? 1 : 0,
    avatar_id: r.avatar_id,
    avatar_url: r.avatar_key ? `/api/avatar/${r.avatar_key}` : null,
    initials: initialsOf(r),
    entries_num: r.entries_num,
    entries_unpaid_num: r.entries_unpaid_num,
    future_points: r.future_points,
    points: r.points,
    left_sum: Number(r.left_sum),
    service_count: r.service_count,
    closestService: r.closest_title && r.closest_begda ? { title: r.closest_title, begda_formatted: formatDate(r.closest_begda) } : null,
    profiles: r.profiles ?? [],
    is_documents_upload_allowed: r.documents_allowed,
    is_contract_allowed: r.documents_allowed,
    contract_step: r.contract_step,
    created_at_formatted: formatDate(r.created_at),
    deleted_at: r.deleted_at ? new Date(r.deleted_at).toISOString() : null,
  };
}
