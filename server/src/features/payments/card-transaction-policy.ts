import { sql, type SQL } from 'drizzle-orm';
import { isOperator } from '../../platform/access.ts';
import type { AuthUser } from '../../platform/auth.ts';

// Who reaches which card transaction, said once: the person it is for (user_id) or who started it
// (created_by); an operator any.

/** The SQL condition on `card_transactions` that keeps only the transactions the asker may reach. */
export const cardTransactionOwnerFilter = (user: Pick<AuthUser, 'id' | 'role'>): SQL =>
  isOperator(user) ? sql`true` : sql`(user_id = ${user.id} or created_by = ${user.id})`;
