import { eq, sql } from 'drizzle-orm';
import { Role } from '@edu/domain/common/codes';
import type { ImportAccount, ImportFill, ImportPerson } from '@edu/domain/users/user-import';
import { dictProfiles, dictRegions, userProfiles, users } from '../../db/schema/index.ts';
import { rows, type Queryable } from '../../platform/db.ts';

/** Every account as the import meets it: by e-mail (lower case) and by phone. */
export async function loadAccounts(db: Queryable): Promise<ImportAccount[]> {
  return rows<ImportAccount>(
    db,
    sql`select id, lower(email) as email, phone, middle_name, organization, job_title, region, dict_region_id,
               password is not null as has_password, has_profile, deleted_at is not null as deleted,
               role = ${Role.guest} as guest
        from users`,
  );
}

/** The names of the regions and work profiles, for matching a file's words to their ids. */
export async function loadDictionaries(db: Queryable): Promise<{ regions: Array<{ id: number; fdv: string }>; profiles: Array<{ id: number; fdv: string }> }> {
  const regions = await db.select({ id: dictRegions.id, fdv: dictRegions.fdv }).from(dictRegions);
  const profiles = await db.select({ id: dictProfiles.id, fdv: dictProfiles.fdv }).from(dictProfiles);
  return { regions, profiles };
}

/** A new account of the import, with its profile ids. */
export interface NewAccount {
  person: ImportPerson;
  regionId: number | null;
  profileIds: number[];
}

/** The stored row of a new account (what its change-log row shows as created). */
export function newUserValues(account: NewAccount) {
  const { person } = account;
  return {
    email: person.email,
    phone: person.phone,
    password: person.password_hash,
    last_name: person.last_name,
    first_name: person.first_name,
    middle_name: person.middle_name,
    organization: person.organization,
    job_title: person.job_title,
    region: person.region,
    dict_region_id: account.regionId,
    role: Role.user,
    // The flag the profiles' trigger would set (they go in with the account, in its transaction):
    // written at once, each new account is not written twice.
    has_profile: account.profileIds.length > 0,
    ...(person.created_at ? { created_at: person.created_at } : {}),
  };
}

/**
 * Inserts new accounts; one that meets an account made meanwhile (same e-mail or phone, a sign-up
 * during the import) is skipped, never doubled. Answers the ids by e-mail of those inserted.
 */
export async function insertAccounts(tx: Queryable, list: NewAccount[]): Promise<Map<string, number>> {
  if (list.length === 0) return new Map();
  const inserted = await tx.insert(users).values(list.map(newUserValues)).onConflictDoNothing().returning({ id: users.id, email: users.email });
  const ids = new Map(inserted.map((r) => [r.email.toLowerCase(), r.id]));
  const profiles = list.flatMap((a) => {
    const id = ids.get(a.person.email);
    return id === undefined ? [] : a.profileIds.map((p) => ({ user_id: id, dict_profile_id: p }));
  });
  if (profiles.length > 0) await tx.insert(userProfiles).values(profiles).onConflictDoNothing();
  return ids;
}

/** The stored values a merge writes (its profiles apart). */
export function fillValues(fill: ImportFill) {
  const { profile_ids: _profiles, ...columns } = fill;
  return columns;
}

/** Fills an existing account's empty fields; a field someone filled meanwhile is kept. */
export async function fillAccount(tx: Queryable, accountId: number, fill: ImportFill): Promise<void> {
  const columns = fillValues(fill);
  if (Object.keys(columns).length > 0) {
    const set: Record<string, unknown> = { updated_at: sql`now()` };
    for (const [column, value] of Object.entries(columns)) {
      const col = users[column as keyof typeof columns];
      set[column] = column === 'dict_region_id' ? sql`coalesce(${col}, ${value})` : sql`coalesce(nullif(${col}, ''), ${value})`;
    }
    await tx.update(users).set(set).where(eq(users.id, accountId));
  }
  if (fill.profile_ids?.length) {
    await tx
      .insert(userProfiles)
      .values(fill.profile_ids.map((p) => ({ user_id: accountId, dict_profile_id: p })))
      .onConflictDoNothing();
  }
}

/** The users' trigram indexes and the names' (migrations 0014, 0032 keep them without a pending list). */
const TRIGRAM_INDEXES = [
  'user_names_full_name_trgm_idx',
  'users_email_trgm_idx',
  'users_phone_digits_trgm_idx',
  'users_full_name_trgm_idx',
  'users_last_name_trgm_idx',
  'users_first_name_trgm_idx',
  'users_middle_name_trgm_idx',
];

/**
 * A bulk import writes the trigram indexes through their pending list (2-3 times faster on the
 * embedded database); at its end the list is merged into the indexes and turned off again, so the
 * searches stay as fast as migration 0014 made them. A run that crashed left it on: the next run
 * (or this function with `false`) turns it off.
 */
export async function setTrigramPendingList(db: Queryable, on: boolean): Promise<void> {
  for (const index of TRIGRAM_INDEXES) await db.execute(sql.raw(`alter index "${index}" set (fastupdate = ${on ? 'on' : 'off'})`));
  if (!on) {
    await db.execute(
      sql`select gin_clean_pending_list(c.oid) from pg_class c where c.relname in (${sql.join(
        TRIGRAM_INDEXES.map((i) => sql`${i}`),
        sql`, `,
      )}) and c.relnamespace = current_schema()::regnamespace`,
    );
  }
}
