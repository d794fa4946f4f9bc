// The SQL the server runs for GET /api/get, rendered from the server's own query builder, so the
// pgbench fallback can never drift from it. ($1 is the session token's SHA-256 hex.) Not included:
// the `update access_tokens set last_used_at` that runs at most once per 5 minutes per session, and
// the request log's batched insert.
import { PgDialect } from 'drizzle-orm/pg-core';
import { currentUserQuery } from '../../../server/src/features/users/current-user.ts';

export function apiGetSql(): string {
  return new PgDialect().sqlToQuery(currentUserQuery({ tokenHash: '' })).sql;
}
