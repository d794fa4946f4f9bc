import { sql } from 'drizzle-orm';
import { index, uniqueIndex, integer, pgTable, smallint, text, timestamp, varchar } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.ts';
import { users } from './users.ts';

/**
 * Archives of everything the centre holds about a person (152-FZ, issue 33), made by the durable job
 * 'personal-data-export': its state and progress, then the zip's storage key until it expires (the
 * zip is removed then, the row stays as the record that the data was handed out).
 */
export const personalDataExports = pgTable(
  'personal_data_exports',
  {
    id: id(),
    /** Whose data. */
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** Who asked: the person, or an operator on their written request. */
    requested_by: integer('requested_by')
      .notNull()
      .references(() => users.id),
    /** 1 queued, 2 preparing, 3 ready, 4 expired, 5 failed (domain ExportStatus). */
    status: smallint('status').notNull().default(1),
    progress: smallint('progress').notNull().default(0),
    storage_key: varchar('storage_key', { length: 255 }),
    size: integer('size'),
    error: text('error'),
    created_at: createdAt(),
    finished_at: timestamp('finished_at', { withTimezone: true }),
    expires_at: timestamp('expires_at', { withTimezone: true }),
  },
  (t) => [
    index('personal_data_exports_user_idx').on(t.user_id, t.created_at),
    // One archive in the making per person: a second request while one runs is refused (429).
    uniqueIndex('personal_data_exports_running_unique')
      .on(t.user_id)
      .where(sql`status in (1, 2)`),
  ],
);
