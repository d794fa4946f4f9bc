import type { AuthUser } from '../../platform/auth.ts';
import { isOperator } from '../../platform/access.ts';
import { notFound } from '../../platform/errors.ts';

// Who may read a stored file (a document, a scan, an avatar): its owner or an operator. Anyone
// else gets 404, never 403 (no hint that the file exists).

/** Whether the signed-in person may read the file. */
export const canSeeFile = (user: Pick<AuthUser, 'id' | 'role'>, file: { user_id: number | null }) => isOperator(user) || file.user_id === user.id;

/** Narrows to the file, or throws 404 when it is missing or someone else's. */
export function assertFileReadable<F extends { user_id: number | null }>(user: Pick<AuthUser, 'id' | 'role'>, file: F | null | undefined): asserts file is F {
  if (!file || !canSeeFile(user, file)) throw notFound();
}
