import { sql } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { createdAt, id } from './columns.ts';
import { users } from './users.ts';

/**
 * A user's Telegram chat (issue 33, decision 042): one chat per user and one user per chat. Chat ids
 * fit in 52 bits (Bot API docs), so a JS number holds them exactly.
 */
export const telegramLinks = pgTable(
  'telegram_links',
  {
    user_id: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    chat_id: bigint('chat_id', { mode: 'number' }).notNull(),
    /** The chat's @username at linking time, when Telegram gave one. */
    username: varchar('username', { length: 64 }),
    /** Operators: the daily to-do summary is sent to this chat. */
    daily_summary: boolean('daily_summary').notNull().default(false),
    linked_at: timestamp('linked_at', { withTimezone: true }).defaultNow().notNull(),
  },
  (t) => [
    uniqueIndex('telegram_links_chat_unique').on(t.chat_id),
    index('telegram_links_summary_idx')
      .on(t.user_id)
      .where(sql`${t.daily_summary}`),
  ],
);

/** One-time deep-link tokens (`/start <token>`): only the SHA-256 is kept; used once, before expires_at. */
export const telegramLinkTokens = pgTable(
  'telegram_link_tokens',
  {
    id: id(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    token_hash: varchar('token_hash', { length: 64 }).notNull(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    used_at: timestamp('used_at', { withTimezone: true }),
    created_at: createdAt(),
  },
  (t) => [uniqueIndex('telegram_link_tokens_hash_unique').on(t.token_hash), index('telegram_link_tokens_user_idx').on(t.user_id)],
);

/** Updates already handled (webhook retries and long polling repeat them): keyed by update_id. */
export const telegramUpdates = pgTable('telegram_updates', {
  update_id: bigint('update_id', { mode: 'number' }).primaryKey(),
  received_at: timestamp('received_at', { withTimezone: true }).defaultNow().notNull(),
});
