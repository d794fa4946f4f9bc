import { index, integer, jsonb, pgTable, real, smallint, text, varchar } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.ts';
import { users } from './users.ts';

/** Change log of entries and publications, written in the same transaction as the change. */
export const changeLogs = pgTable(
  'change_logs',
  {
    id: id(),
    /** entry, publication, user, service or payment (domain/src/logs/log.ts). */
    type: varchar('type', { length: 32 }).notNull(),
    entity_id: integer('entity_id').notNull(),
    /** Null means the system. */
    user_id: integer('user_id').references(() => users.id),
    /** The operator who made the change in a "login as user" session of user_id; null otherwise. */
    impersonator_id: integer('impersonator_id').references(() => users.id),
    diff: jsonb('diff').$type<Record<string, { old: unknown; new: unknown }>>().notNull(),
    created_at: createdAt(),
  },
  (t) => [index('change_logs_entity_idx').on(t.type, t.entity_id, t.created_at), index('change_logs_created_at_idx').on(t.created_at)],
);

/** Request log for developers (/manager/api-requests). */
export const requestLogs = pgTable(
  'request_logs',
  {
    id: id(),
    method: varchar('method', { length: 10 }).notNull(),
    path: varchar('path', { length: 1000 }).notNull(),
    status: smallint('status').notNull(),
    duration_ms: real('duration_ms').notNull(),
    memory_mb: real('memory_mb').notNull(),
    ip: varchar('ip', { length: 64 }),
    user_id: integer('user_id'),
    response: text('response'),
    created_at: createdAt(),
  },
  (t) => [index('request_logs_created_at_idx').on(t.created_at), index('request_logs_status_idx').on(t.status, t.created_at)],
);
