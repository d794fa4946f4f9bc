// The SQL the server runs for GET /api/get, copied word for word so pgbench measures the database
// share of the request. Keep in step with the server when these queries change:
//  1. server/src/platform/auth.ts, resolve(): the drizzle query, as drizzle prints it (toSQL()).
//  2. server/src/features/users/current-user.ts, loadCurrentUser(): the raw SQL.
// ($1 is the parameter in both.) Not included: the `update access_tokens set last_used_at` that
// resolve() runs at most once per 5 minutes per session, and the request log's batched insert.

export const RESOLVE_TOKEN_SQL =
  'select "users"."id", "users"."role", "access_tokens"."id", "access_tokens"."impersonator_id", "access_tokens"."last_used_at" from "access_tokens" inner join "users" on "users"."id" = "access_tokens"."user_id" where ("access_tokens"."token_hash" = $1 and "access_tokens"."revoked_at" is null and "access_tokens"."expires_at" > now() and "users"."deleted_at" is null)';

export const CURRENT_USER_SQL = `
    select u.id, u.email, u.last_name, u.first_name, u.middle_name, u.phone, u.organization, u.job_title,
      u.learned_from_us, u.address, u.region, u.dict_region_id, u.country, u.postcode, u.note, u.role, u.is_spb,
      u.avatar_id, u.contract_step, u.created_at, u.deleted_at,
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
    from users u
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
    where u.id = $1`;
