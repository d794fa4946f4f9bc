import { sql } from 'drizzle-orm';
import { roleLabels, type RoleCode } from '@edu/domain/common/codes';
import { formatDate } from '@edu/domain/common/format';
import { fullName, initialsOf, type ProfileBadge, type UserDetails } from '@edu/domain/users/current-user';

// The user's own data, selected and shaped once for the current user (GET /api/get) and for the
// operator's users screen; each query adds its own figures (entries_num, service_count, left_sum).

/** Columns of a user `u`: their own fields, the avatar's storage key and their work profiles. */
export const USER_COLUMNS = sql`u.id, u.email, u.last_name, u.first_name, u.middle_name, u.phone, u.organization, u.job_title,
    u.learned_from_us, u.address, u.region, u.dict_region_id, u.country, u.postcode, u.note, u.role, u.is_spb,
    u.created_at, u.deleted_at,
    (select f.storage_key from files f where f.id = u.avatar_id) as avatar_key,
    -- Each profile by its key (lateral): a join let the planner hash the whole dictionary on every call.
    (select json_agg(json_build_object('id', p.id, 'fdv', p.fdv, 'color', p.color) order by p.id)
       from user_profiles up cross join lateral (select p.id, p.fdv, p.color from dict_profiles p where p.id = up.dict_profile_id) p
       where up.user_id = u.id) as profiles`;

/** A row of USER_COLUMNS with the entry figures every user query adds. */
export interface UserDetailsRow extends Pick<
  UserDetails,
  | 'id'
  | 'last_name'
  | 'first_name'
  | 'middle_name'
  | 'phone'
  | 'organization'
  | 'job_title'
  | 'learned_from_us'
  | 'address'
  | 'region'
  | 'dict_region_id'
  | 'country'
  | 'postcode'
  | 'note'
  | 'entries_num'
  | 'service_count'
> {
  email: string;
  role: number;
  is_spb: number;
  created_at: Date | string;
  deleted_at: Date | string | null;
  avatar_key: string | null;
  profiles: ProfileBadge[] | null;
  left_sum: string | number;
}

export function toUserDetails(r: UserDetailsRow): UserDetails {
  const role = r.role as RoleCode;
  return {
    id: r.id,
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
    note: r.note,
    role,
    role_label: roleLabels[role] ?? '',
    is_spb: r.is_spb === 1 ? 1 : 0,
    avatar_url: r.avatar_key ? `/api/avatar/${r.avatar_key}` : null,
    initials: initialsOf(r),
    profiles: r.profiles ?? [],
    entries_num: r.entries_num,
    service_count: r.service_count,
    left_sum: Number(r.left_sum),
    created_at_formatted: formatDate(r.created_at),
    deleted_at: r.deleted_at ? new Date(r.deleted_at).toISOString() : null,
  };
}
