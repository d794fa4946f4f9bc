import type { AuthUser } from '../../platform/auth.ts';
import { isOperator } from '../../platform/access.ts';
import { notFound } from '../../platform/errors.ts';

// Whose user record (profile, documents, print data) a signed-in person may act on: their own, or
// anyone's for an operator. Anyone else gets 404, never 403.

/** Whether the signed-in person may act on user `userId`'s record. */
export const canActOnUser = (user: Pick<AuthUser, 'id' | 'role'>, userId: number) => user.id === userId || isOperator(user);

/** Throws 404 unless the signed-in person may act on user `userId`'s record. */
export function assertUserReachable(user: Pick<AuthUser, 'id' | 'role'>, userId: number): void {
  if (!canActOnUser(user, userId)) throw notFound();
}
