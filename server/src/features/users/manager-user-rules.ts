import { PersonalDataMessages } from '@edu/domain/personal-data/personal-data';
import { randomUUID } from 'node:crypto';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { Messages } from '@edu/domain/common/messages';
import { GUEST_EMAIL_DOMAIN, LOGIN_AS_FIELD, LoginAsLog, UserMessages, type LoginAsAnswer, type ManagerUserValues } from '@edu/domain/users/manager-user';
import { fullName } from '@edu/domain/users/current-user';
import { accessTokens, dictProfiles, dictRegions, userProfiles, users } from '../../db/schema/index.ts';
import { createSession, revokeSession, type AuthUser } from '../../platform/auth.ts';
import { logChange, logEvent } from '../../platform/change-log.ts';
import type { Db } from '../../platform/db.ts';
import { AppError, fieldError, forbidden, notFound, validationError } from '../../platform/errors.ts';
import { hashPassword } from '../../platform/passwords.ts';
import { userSnapshot } from './manager-users-repository.ts';
import { isGuest, isOperator } from '../../platform/access.ts';

const isUniqueViolation = (err: unknown) => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
};

/**
 * Creates (id null) or updates a user from the operator's modal, with the work profiles, in one
 * transaction together with its change-log row. Guests keep no e-mail and phone of their own; a
 * user turned into a guest keeps the ones stored (nothing is lost).
 */
export async function saveUser(db: Db, actor: AuthUser, id: number | null, v: ManagerUserValues): Promise<number> {
  if (id !== null && id === actor.id && !isOperator(v)) throw fieldError('role', 'Нельзя снять с себя роль оператора');
  const guest = isGuest(v);
  if (id !== null) {
    // An erased person's data is gone for good (issue 33): nobody writes it back into the account.
    const [erased] = await db.select({ at: users.erased_at }).from(users).where(eq(users.id, id));
    if (erased?.at) throw new AppError(422, PersonalDataMessages.alreadyErased);
  }

  // E-mail and phone are unique among all users, deleted ones included (they can be restored).
  if (!guest) {
    const clash = await db
      .select({ email: users.email, phone: users.phone })
      .from(users)
      .where(and(id === null ? sql`true` : ne(users.id, id), sql`(lower(${users.email}) = ${v.email} or ${users.phone} = ${v.phone})`));
    if (clash.length) {
      const errors: Record<string, string[]> = {};
      if (clash.some((c) => c.email.toLowerCase() === v.email)) errors.email = [Messages.emailTaken];
      if (clash.some((c) => c.phone === v.phone)) errors.phone = [Messages.phoneTaken];
      throw validationError(errors);
    }
  }
  const profiles = [...new Set(v.profiles)];
  if (profiles.length) {
    const known = await db.select({ id: dictProfiles.id }).from(dictProfiles).where(inArray(dictProfiles.id, profiles));
    if (known.length !== profiles.length) throw fieldError('profiles', 'Неизвестный профиль');
  }
  if (v.dict_region_id) {
    const [region] = await db.select({ id: dictRegions.id }).from(dictRegions).where(eq(dictRegions.id, v.dict_region_id));
    if (!region) throw fieldError('dict_region_id', 'Неизвестный регион');
  }
  const password = v.password ? await hashPassword(v.password) : undefined;

  const fields = {
    last_name: v.last_name,
    first_name: v.first_name,
    middle_name: v.middle_name,
    organization: v.organization,
    job_title: v.job_title,
    learned_from_us: v.learned_from_us,
    address: v.address,
    region: v.region,
    dict_region_id: v.dict_region_id ?? null,
    country: v.country,
    postcode: v.postcode,
    note: v.note,
    role: v.role,
    is_spb: v.is_spb,
  };

  try {
    return await db.transaction(async (tx) => {
      let userId: number;
      let before: Record<string, unknown> | null = null;
      if (id === null) {
        const [row] = await tx
          .insert(users)
          .values({
            ...fields,
            email: guest ? `guest-${randomUUID()}@${GUEST_EMAIL_DOMAIN}` : v.email!,
            phone: guest ? null : v.phone,
            ...(password ? { password } : {}),
          })
          .returning({ id: users.id });
        userId = row.id;
      } else {
        before = await userSnapshot(tx, id);
        if (!before) throw notFound(UserMessages.userNotFound);
        await tx
          .update(users)
          .set({
            ...fields,
            ...(guest ? {} : { email: v.email!, phone: v.phone }),
            ...(password ? { password } : {}),
            updated_at: new Date(),
          })
          .where(eq(users.id, id));
        userId = id;
      }
      // Guests may have no work profile; everyone else has at least one (checked by the body schema).
      await tx.delete(userProfiles).where(eq(userProfiles.user_id, userId));
      if (profiles.length) await tx.insert(userProfiles).values(profiles.map((p) => ({ user_id: userId, dict_profile_id: p })));
      await logChange(tx, { type: 'user', entityId: userId, userId: actor.id, before, after: await userSnapshot(tx, userId) });
      return userId;
    });
  } catch (err) {
    // Two saves with the same e-mail or phone at once: the unique index decides, the answer is the same 422.
    if (isUniqueViolation(err)) throw validationError({ email: [Messages.emailTaken] });
    throw err;
  }
}

/** Soft delete (deleted_at set); the user's sessions stop working at once (auth checks deleted_at). */
export async function deleteUser(db: Db, actor: AuthUser, id: number): Promise<void> {
  if (id === actor.id) throw new AppError(422, UserMessages.noDeleteSelf);
  await db.transaction(async (tx) => {
    const before = await userSnapshot(tx, id);
    if (!before) throw notFound(UserMessages.userNotFound);
    if (before.deleted_at) return;
    await tx.update(users).set({ deleted_at: new Date(), updated_at: new Date() }).where(eq(users.id, id));
    await tx
      .update(accessTokens)
      .set({ revoked_at: sql`now()` })
      .where(and(eq(accessTokens.user_id, id), sql`${accessTokens.revoked_at} is null`));
    await logChange(tx, { type: 'user', entityId: id, userId: actor.id, before, after: await userSnapshot(tx, id) });
  });
}

/** Restore clears deleted_at. */
export async function restoreUser(db: Db, actor: AuthUser, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const before = await userSnapshot(tx, id);
    if (!before) throw notFound(UserMessages.userNotFound);
    // An erased person's data is gone for good (issue 33): the account is not brought back.
    const [erased] = await tx.select({ at: users.erased_at }).from(users).where(eq(users.id, id));
    if (erased?.at) throw new AppError(422, PersonalDataMessages.alreadyErased);
    await tx.update(users).set({ deleted_at: null, updated_at: new Date() }).where(eq(users.id, id));
    await logChange(tx, { type: 'user', entityId: id, userId: actor.id, before, after: await userSnapshot(tx, id) });
  });
}

/**
 * The operator's session becomes the user's: a session of the user that remembers the operator
 * (access_tokens.impersonator_id), and the operator's own session ends. Not for deleted users, other
 * operators or oneself. The start is written to the change log.
 */
export async function loginAs(db: Db, actor: AuthUser, targetId: number, meta: { ip?: string; userAgent?: string }): Promise<LoginAsAnswer> {
  const [target] = await db.select().from(users).where(eq(users.id, targetId));
  if (!target) throw notFound(UserMessages.userNotFound);
  if (target.id === actor.id) throw new AppError(422, UserMessages.noLoginAsSelf);
  if (isOperator(target)) throw forbidden(UserMessages.noLoginAsOperator);
  if (target.deleted_at) throw new AppError(422, UserMessages.noLoginAsDeleted);
  return db.transaction(async (tx) => {
    const session = await createSession(tx, { userId: target.id, remember: false, ip: meta.ip, userAgent: meta.userAgent, impersonatorId: actor.id });
    await revokeSession(tx, actor.tokenId);
    await logEvent(tx, { type: 'user', entityId: target.id, userId: actor.id, diff: { [LOGIN_AS_FIELD]: { old: null, new: LoginAsLog.started } } });
    return { ...session, user: { id: target.id, fio: fullName(target) } };
  });
}

/**
 * Back to the operator in one click: the impersonation session ends and the operator gets a
 * session of their own again (only while they are still an active operator). The end is logged.
 */
export async function leaveLoginAs(db: Db, me: AuthUser, meta: { ip?: string; userAgent?: string }) {
  if (!me.impersonatorId) throw forbidden(UserMessages.notImpersonating);
  const [operator] = await db.select({ id: users.id, role: users.role, deleted_at: users.deleted_at }).from(users).where(eq(users.id, me.impersonatorId));
  return db.transaction(async (tx) => {
    await revokeSession(tx, me.tokenId);
    await logEvent(tx, {
      type: 'user',
      entityId: me.id,
      userId: me.impersonatorId,
      diff: { [LOGIN_AS_FIELD]: { old: LoginAsLog.started, new: LoginAsLog.ended } },
    });
    // An operator removed or demoted meanwhile gets no session back (null): the cabinet goes to /login.
    if (!operator || operator.deleted_at || !isOperator(operator)) return null;
    return createSession(tx, { userId: operator.id, remember: false, ip: meta.ip, userAgent: meta.userAgent });
  });
}
