import { and, eq, ne, sql } from 'drizzle-orm';
import { dictProfiles, userProfiles, users } from '../../db/schema/index.ts';
import { rows, type Queryable } from '../../platform/db.ts';

// The statements of a user's own profile (features/users/routes.ts): password, contacts, work
// profiles, the avatar.

/** The stored password hash of a user (null when none is set). */
export async function findPasswordHash(db: Queryable, userId: number): Promise<{ password: string | null } | undefined> {
  const [row] = await db.select({ password: users.password }).from(users).where(eq(users.id, userId));
  return row;
}

export interface ContactRow {
  email: string;
  phone: string | null;
}

/** Other users holding the e-mail (lower-cased already) or the phone. */
export async function findContactClashes(db: Queryable, userId: number, email: string | null, phone: string | null): Promise<ContactRow[]> {
  return db
    .select({ email: users.email, phone: users.phone })
    .from(users)
    .where(and(ne(users.id, userId), sql`(lower(${users.email}) = ${email} or ${users.phone} = ${phone})`));
}

/** The user's e-mail. */
export async function findUserEmail(db: Queryable, userId: number): Promise<{ email: string } | undefined> {
  const [row] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return row;
}

/** The profile fields a user may change (names only through an operator). */
export type ProfileChanges = Partial<
  Pick<
    typeof users.$inferInsert,
    | 'last_name'
    | 'first_name'
    | 'middle_name'
    | 'email'
    | 'phone'
    | 'organization'
    | 'job_title'
    | 'learned_from_us'
    | 'address'
    | 'region'
    | 'dict_region_id'
    | 'country'
    | 'postcode'
    | 'contract_step'
  >
>;

/**
 * The fields a profile save may change, of a live user, locked for the transaction: the change log
 * compares them before and after the save.
 */
export async function lockProfileFields(tx: Queryable, userId: number): Promise<Record<string, unknown> | undefined> {
  const [row] = await rows<Record<string, unknown>>(
    tx,
    sql`select last_name, first_name, middle_name, email, phone, organization, job_title, learned_from_us, address, region,
          dict_region_id, country, postcode, contract_step
        from users where id = ${userId} and deleted_at is null for update`,
  );
  return row;
}

/** Saves the given fields of a live user; false when there is no such user. */
export async function updateUserProfile(db: Queryable, userId: number, changes: ProfileChanges): Promise<boolean> {
  const [row] = await db
    .update(users)
    .set({ ...changes, updated_at: new Date() })
    .where(and(eq(users.id, userId), sql`${users.deleted_at} is null`))
    .returning({ id: users.id });
  return Boolean(row);
}

/** Which of the work profile ids exist. */
export async function findKnownProfileIds(db: Queryable, ids: number[]): Promise<Array<{ id: number }>> {
  return db
    .select({ id: dictProfiles.id })
    .from(dictProfiles)
    .where(
      sql`${dictProfiles.id} in (${sql.join(
        ids.map((p) => sql`${p}`),
        sql`, `,
      )})`,
    );
}

/** Replaces the user's work profiles (in the caller's transaction); answers the previous ids. */
export async function replaceUserProfiles(tx: Queryable, userId: number, profileIds: number[]): Promise<number[]> {
  const before = await tx.select({ p: userProfiles.dict_profile_id }).from(userProfiles).where(eq(userProfiles.user_id, userId));
  await tx.delete(userProfiles).where(eq(userProfiles.user_id, userId));
  await tx.insert(userProfiles).values(profileIds.map((p) => ({ user_id: userId, dict_profile_id: p })));
  return before.map((r) => r.p);
}

/** Sets a live user's password hash; false when there is no such user. */
export async function setUserPassword(db: Queryable, userId: number, passwordHash: string): Promise<boolean> {
  const [row] = await db
    .update(users)
    .set({ password: passwordHash, updated_at: new Date() })
    .where(and(eq(users.id, userId), sql`${users.deleted_at} is null`))
    .returning({ id: users.id });
  return Boolean(row);
}

/** Locks a live user's row for the transaction and answers their current avatar. */
export async function lockUserAvatar(tx: Queryable, userId: number): Promise<{ avatar_id: number | null } | undefined> {
  const [row] = await rows<{ avatar_id: number | null }>(tx, sql`select avatar_id from users where id = ${userId} and deleted_at is null for update`);
  return row;
}

export async function setUserAvatar(tx: Queryable, userId: number, fileId: number): Promise<void> {
  await tx.update(users).set({ avatar_id: fileId, updated_at: new Date() }).where(eq(users.id, userId));
}

/** The file of a current avatar of a live user, by its storage key (a replaced or deleted one is none). */
export async function findLiveAvatar(db: Queryable, storageKey: string): Promise<{ id: number } | undefined> {
  const [file] = await rows<{ id: number }>(
    db,
    sql`select f.id from files f join users u on u.avatar_id = f.id where f.storage_key = ${storageKey} and f.deleted_at is null and u.deleted_at is null`,
  );
  return file;
}
