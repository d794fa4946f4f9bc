import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.ts';

/**
 * Durable jobs: work that must happen later (package expiry, payment reconciliation, mailing) is a
 * row here, picked up by any app instance with FOR UPDATE SKIP LOCKED. Survives restarts.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: id(),
    name: varchar('name', { length: 64 }).notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull().default({}),
    /** Optional key: at most one unfinished job per (name, unique_key). */
    unique_key: varchar('unique_key', { length: 128 }),
    run_at: timestamp('run_at', { withTimezone: true }).defaultNow().notNull(),
    attempts: integer('attempts').notNull().default(0),
    locked_until: timestamp('locked_until', { withTimezone: true }),
    done_at: timestamp('done_at', { withTimezone: true }),
    last_error: text('last_error'),
    /** Whose work it is (a publication's author for its uniqueness check): per-owner limits and fair order. */
    owner_id: integer('owner_id'),
    /** When a runner last took it. */
    started_at: timestamp('started_at', { withTimezone: true }),
    created_at: createdAt(),
  },
  (t) => [
    index('jobs_due_idx')
      .on(t.run_at)
      .where(sql`done_at is null`),
    index('jobs_owner_idx').on(t.name, t.owner_id, t.started_at),
    uniqueIndex('jobs_unique_key')
      .on(t.name, t.unique_key)
      .where(sql`done_at is null and unique_key is not null`),
  ],
);
