import { index, integer, pgTable, smallint, text, timestamp, varchar } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.ts';
import { services } from './services.ts';
import { users } from './users.ts';

/** Settings kept in the database (the centre's requisites for documents, the print-link secret). */
export const appSettings = pgTable('app_settings', {
  key: varchar('key', { length: 64 }).primaryKey(),
  value: text('value').notNull(),
  updated_at: timestamp('updated_at', { withTimezone: true }).defaultNow().notNull(),
});

/** All certificates of a service printed as one zip by a durable job, with its progress. */
export const printBatches = pgTable(
  'print_batches',
  {
    id: id(),
    service_id: integer('service_id')
      .notNull()
      .references(() => services.id),
    created_by: integer('created_by')
      .notNull()
      .references(() => users.id),
    /** 1 queued, 2 running, 3 done, 4 failed. */
    status: smallint('status').notNull().default(1),
    total: integer('total').notNull().default(0),
    done: integer('done').notNull().default(0),
    /** Entries skipped because the print rules do not allow them yet. */
    skipped: integer('skipped').notNull().default(0),
    storage_key: varchar('storage_key', { length: 255 }),
    error: text('error'),
    created_at: createdAt(),
    finished_at: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [index('print_batches_service_idx').on(t.service_id, t.created_at)],
);
