import { index, integer, jsonb, pgTable, text, timestamp, varchar } from 'drizzle-orm/pg-core';
import { createdAt, deletedAt, id, updatedAt } from './columns.ts';
import { dictEvents, dictTemplateTypes } from './dictionaries.ts';
import { files } from './documents.ts';
import { users } from './users.ts';

/** Templates of types 1-7 (certificate, program, regList, page, notification, consent, contract). */
export const templates = pgTable(
  'templates',
  {
    id: id(),
    title: varchar('title', { length: 255 }).notNull(),
    content: text('content'),
    dict_type_id: integer('dict_type_id')
      .notNull()
      .references(() => dictTemplateTypes.id),
    file_id: integer('file_id').references(() => files.id),
    event_id: integer('event_id').references(() => dictEvents.id),
    created_at: createdAt(),
    updated_at: updatedAt(),
    deleted_at: deletedAt(),
  },
  (t) => [index('templates_type_idx').on(t.dict_type_id)],
);

/** Mass mailings to all users (spec 03 'Рассылка для всех пользователей'). */
export const mailings = pgTable('mailings', {
  id: id(),
  message: text('message').notNull(),
  created_by: integer('created_by').references(() => users.id),
  recipients: integer('recipients').notNull().default(0),
  sent: integer('sent').notNull().default(0),
  created_at: createdAt(),
  /** The letter as sent: sanitised HTML, its plain-text part and the subject. */
  subject: varchar('subject', { length: 255 }),
  html: text('html'),
  text: text('text'),
  /** 'queued' (recipients not listed yet), 'sending', 'done'. */
  status: varchar('status', { length: 16 }).notNull().default('queued'),
  failed: integer('failed').notNull().default(0),
  started_at: timestamp('started_at', { withTimezone: true }),
  finished_at: timestamp('finished_at', { withTimezone: true }),
  /** Who it is for (MailingAudience; null: everyone) and the same in words for the operators' list. */
  audience: jsonb('audience'),
  audience_label: text('audience_label'),
});
