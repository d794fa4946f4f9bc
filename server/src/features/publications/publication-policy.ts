import { sql, type SQL } from 'drizzle-orm';
import { PublicationMessages, userMayDelete } from '@edu/domain/publications/publication';
import { isOperator } from '../../platform/access.ts';
import type { AuthUser } from '../../platform/auth.ts';
import { AppError } from '../../platform/errors.ts';

// Who may see and delete a publication: the one place that decides it by role. Queries of the
// publications repository filter with publicationVisibleTo; the delete route asks assertPublicationDeletable.

/** What a user may see: publications they created or co-author (accepted). Operators see every one. */
export function publicationVisibleTo(user: AuthUser): SQL {
  if (isOperator(user)) return sql`true`;
  return sql`(p.created_by = ${user.id} or exists (select 1 from publication_authors va where va.publication_id = p.id and va.user_id = ${user.id} and va.accepted_at is not null))`;
}

/** DELETE /api/publication/{id}: another user's publication is 403, the creator's not-yet-rejected one 422; operators pass. */
export function assertPublicationDeletable(user: AuthUser, p: { created_by: number | null; status: number }): void {
  if (isOperator(user)) return;
  if (p.created_by !== user.id) throw new AppError(403, PublicationMessages.onlyRejectedDelete);
  if (!userMayDelete(p.status)) throw new AppError(422, PublicationMessages.onlyRejectedDelete);
}
