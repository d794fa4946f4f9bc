import { sql, type SQL } from 'drizzle-orm';
import { isOperator } from '../../platform/access.ts';
import type { AuthUser } from '../../platform/auth.ts';

// Who sees and changes which entry, said once: a user their own entries (created_by), an operator
// everyone's. Handlers and rules ask here instead of comparing roles themselves.

type Asker = Pick<AuthUser, 'id' | 'role'>;

/** The owner an entry query is narrowed to: the asker, or nobody's in particular for operators. */
export const entryOwnerOf = (user: Asker): number | undefined => (isOperator(user) ? undefined : user.id);

/** The SQL condition on `entries` (or on its alias) that keeps only the entries the asker may reach. */
export const entryOwnerFilter = (user: Asker, alias?: string): SQL =>
  isOperator(user) ? sql`true` : alias ? sql`${sql.identifier(alias)}.created_by = ${user.id}` : sql`created_by = ${user.id}`;

/** Whether the asker may reach an entry created by `createdBy`: their own, or any for operators. */
export const canReachEntry = (user: Asker, createdBy: number) => createdBy === user.id || isOperator(user);
