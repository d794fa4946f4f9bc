import { and, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import { passwordResets, users } from '../../db/schema/index.ts';
import type { Queryable } from '../../platform/db.ts';
import { logChange } from '../../platform/change-log.ts';

export type UserRow = typeof users.$inferSelect;

export async function findUserByLogin(db: Queryable, login: { email: string } | { phone: string }): Promise<UserRow | undefined> {
  const where = 'email' in login ? eq(sql`lower(${users.email})`, login.email.toLowerCase()) : eq(users.phone, login.phone);
  const [user] = await db.select().from(users).where(where).limit(1);
  return user;
}

export async function findUsersByEmailOrPhone(db: Queryable, email: string | undefined, phone: string | undefined): Promise<UserRow[]> {
  const conditions = [];
  if (email) conditions.push(eq(sql`lower(${users.email})`, email.toLowerCase()));
  if (phone) conditions.push(eq(users.phone, phone));
  if (conditions.length === 0) return [];
  return db
    .select()
    .from(users)
    .where(conditions.length === 1 ? conditions[0] : sql`(${conditions[0]} or ${conditions[1]})`);
}

export async function pendingResets(db: Queryable, userId: number) {
  return db
    .select()
    .from(passwordResets)
    .where(and(eq(passwordResets.user_id, userId), isNull(passwordResets.used_at), gt(passwordResets.expires_at, sql`now()`)))
    .orderBy(desc(passwordResets.created_at))
    .limit(5);
}

/** Makes a mailed password the account's password and closes every open reset of the user. */
export async function promoteReset(db: Queryable, userId: number, passwordHash: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [before] = await tx.select({ password: users.password }).from(users).where(eq(users.id, userId)).for('update');
    // The person's own act (the mailed password is theirs); the log shows only that it changed.
    await logChange(tx, { type: 'user', entityId: userId, userId, before, after: { password: passwordHash } });
    await tx
      .update(users)
      .set({ password: passwordHash, updated_at: sql`now()` })
      .where(eq(users.id, userId));
    await tx
      .update(passwordResets)
      .set({ used_at: sql`now()` })
      .where(and(eq(passwordResets.user_id, userId), isNull(passwordResets.used_at)));
  });
}

/**
 * Replaces an old system's hash (bcrypt from the old cabinet) with ours after a right login. The
 * password itself is unchanged, so the change log has nothing to show; a hash changed meanwhile
 * (a reset, a new password) is left alone.
 */
export async function upgradePasswordHash(db: Queryable, userId: number, oldHash: string, newHash: string): Promise<void> {
  await db
    .update(users)
    .set({ password: newHash })
    .where(and(eq(users.id, userId), eq(users.password, oldHash)));
}

/** A new account; answers its id. */
export async function insertUser(db: Queryable, values: typeof users.$inferInsert): Promise<{ id: number }> {
  const [row] = await db.insert(users).values(values).returning({ id: users.id });
  return row;
}

/** A mailed password waiting to be used (its hash, valid until expires_at). */
export async function insertPasswordReset(db: Queryable, values: typeof passwordResets.$inferInsert): Promise<void> {
  await db.insert(passwordResets).values(values);
}
