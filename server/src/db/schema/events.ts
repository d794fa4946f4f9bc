import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, smallint, text, timestamp, uniqueIndex, uuid, varchar } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.ts';
import { dictEvents } from './dictionaries.ts';
import { mailings } from './templates.ts';
import { users } from './users.ts';

/**
 * Outbox of domain events (dict_events): written in the same transaction as the change that raised
 * the event, delivered later by the 'deliver-event' job (notification from the event's template,
 * e-mail when the event's mailing switch is on). A rolled-back change leaves no row, so nobody is
 * told about something that did not happen.
 */
export const eventOutbox = pgTable(
  'event_outbox',
  {
    id: id(),
    event_id: integer('event_id')
      .notNull()
      .references(() => dictEvents.id),
    /** The recipient. */
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** The entity the event is about (macros of the entry, its service, the publication, the contract). */
    entry_id: integer('entry_id'),
    service_id: integer('service_id'),
    publication_id: integer('publication_id'),
    contract_id: integer('contract_id'),
    /** Extra macro values known only at the moment of the event (for example a list of removed entries). */
    extra: jsonb('extra').$type<Record<string, string>>().notNull().default({}),
    notified_at: timestamp('notified_at', { withTimezone: true }),
    notification_id: integer('notification_id'),
    mailed_at: timestamp('mailed_at', { withTimezone: true }),
    /** 'sent', 'off' (mailing switch off), 'no-address', 'failed'. */
    mail_result: varchar('mail_result', { length: 16 }),
    last_error: text('last_error'),
    created_at: createdAt(),
  },
  (t) => [
    index('event_outbox_user_idx').on(t.user_id),
    index('event_outbox_pending_idx')
      .on(t.id)
      .where(sql`mail_result is null`),
  ],
);

/**
 * One row per recipient of a mass mailing; (mailing_id, user_id) is the idempotency key, so a
 * restarted fan-out never adds a second letter for anybody. Status 0 waiting, 1 sent, 2 failed for good.
 */
export const mailingDeliveries = pgTable(
  'mailing_deliveries',
  {
    id: id(),
    mailing_id: integer('mailing_id')
      .notNull()
      .references(() => mailings.id, { onDelete: 'cascade' }),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: varchar('email', { length: 255 }).notNull(),
    status: smallint('status').notNull().default(0),
    attempts: integer('attempts').notNull().default(0),
    next_attempt_at: timestamp('next_attempt_at', { withTimezone: true }).defaultNow().notNull(),
    /** Set while a sender holds the row; a crashed sender's rows are taken again when it passes. */
    locked_until: timestamp('locked_until', { withTimezone: true }),
    sent_at: timestamp('sent_at', { withTimezone: true }),
    last_error: text('last_error'),
  },
  (t) => [
    uniqueIndex('mailing_deliveries_key').on(t.mailing_id, t.user_id),
    index('mailing_deliveries_waiting_idx')
      .on(t.mailing_id, t.id)
      .where(sql`status = 0`),
  ],
);

/** Mass-mailing subscription of a user: the unsubscribe token of the letters and the opt-out. */
export const mailSubscriptions = pgTable(
  'mail_subscriptions',
  {
    user_id: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    token: uuid('token').notNull().defaultRandom(),
    unsubscribed_at: timestamp('unsubscribed_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('mail_subscriptions_token').on(t.token)],
);
