import { boolean, index, integer, jsonb, pgTable, primaryKey, smallint, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { createdAt, id, money, updatedAt } from './columns.ts';
import { entries } from './entries.ts';
import { users } from './users.ts';

/**
 * Card-provider payments (YooKassa or the built-in sandbox): every attempt, including the public
 * /pay form's payments without a user (/manager/yookassa).
 */
export const cardTransactions = pgTable(
  'card_transactions',
  {
    id: id(),
    /** The provider's payment id. */
    uuid: varchar('uuid', { length: 64 }),
    provider: varchar('provider', { length: 16 }).notNull(),
    idempotence_key: varchar('idempotence_key', { length: 64 }).notNull(),
    /** pending, waiting_for_capture, succeeded, canceled. */
    status: varchar('status', { length: 32 }).notNull().default('pending'),
    sum: money('sum').notNull(),
    currency: varchar('currency', { length: 3 }).notNull().default('RUB'),
    description: varchar('description', { length: 500 }),
    user_id: integer('user_id').references(() => users.id),
    fio: varchar('fio', { length: 255 }),
    phone: varchar('phone', { length: 32 }),
    confirmation_url: varchar('confirmation_url', { length: 1000 }),
    /** Entries this payment covers (one entry, or the entries of a package enrolment); empty for the public form. */
    entry_ids: jsonb('entry_ids').$type<number[]>().notNull().default([]),
    /** Who started it; null for the public /pay form. */
    created_by: integer('created_by').references(() => users.id),
    /** The provider's last answer. */
    raw: jsonb('raw'),
    /**
     * What we decided for a payment held for capture (waiting_for_capture): 'capture' while every
     * entry it covers is unpaid (those entries are then reserved for it), 'cancel' when they were
     * already paid otherwise (docs/decisions/023-no-double-charge.md).
     */
    hold_decision: varchar('hold_decision', { length: 16 }),
    checked_at: timestamp('checked_at', { withTimezone: true }),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex('card_transactions_uuid_unique').on(t.uuid),
    uniqueIndex('card_transactions_idempotence_unique').on(t.idempotence_key),
    index('card_transactions_status_idx').on(t.status, t.created_at),
    index('card_transactions_user_idx').on(t.user_id),
    index('card_transactions_created_at_idx').on(t.created_at),
    index('card_transactions_entry_ids_idx').using('gin', t.entry_ids),
  ],
);

/** Money received for entries, whatever the pay type (/manager/payments). One payment may cover a package's entries. */
export const payments = pgTable(
  'payments',
  {
    id: id(),
    uuid: varchar('uuid', { length: 64 }),
    card_transaction_id: integer('card_transaction_id').references(() => cardTransactions.id),
    sum: money('sum').notNull(),
    pay_type: smallint('pay_type').notNull(),
    user_id: integer('user_id').references(() => users.id),
    /** Who recorded it: the operator who marked the entry paid, or null for the provider. */
    created_by: integer('created_by').references(() => users.id),
    /** A success for entries that were already paid: recorded and shown to operators. */
    is_double: boolean('is_double').notNull().default(false),
    description: varchar('description', { length: 500 }),
    created_at: createdAt(),
  },
  (t) => [
    index('payments_created_at_idx').on(t.created_at),
    // The payment list sorted by sum (?sort=sum, ?sort=-sum read backwards).
    index('payments_sum_idx').on(t.sum, t.id),
    // One payment row per provider payment: a repeated success can never be counted twice.
    uniqueIndex('payments_uuid_unique').on(t.uuid),
    index('payments_user_idx').on(t.user_id),
    // The card-transaction list's refunded sum per row.
    index('payments_card_transaction_idx').on(t.card_transaction_id),
  ],
);

export const paymentEntries = pgTable(
  'payment_entries',
  {
    payment_id: integer('payment_id')
      .notNull()
      .references(() => payments.id, { onDelete: 'cascade' }),
    entry_id: integer('entry_id')
      .notNull()
      .references(() => entries.id),
    sum: money('sum').notNull(),
  },
  (t) => [primaryKey({ columns: [t.payment_id, t.entry_id] }), index('payment_entries_entry_idx').on(t.entry_id)],
);

/**
 * Refunds of online payments through the provider: automatic ones for a double payment (created_by
 * null) and the operator's (whole or part, with a reason). The Idempotence-Key is ours and stored,
 * so a retried or repeated request never refunds twice.
 */
export const paymentRefunds = pgTable(
  'payment_refunds',
  {
    id: id(),
    payment_id: integer('payment_id')
      .notNull()
      .references(() => payments.id),
    /** The provider's refund id, known after its first answer. */
    uuid: varchar('uuid', { length: 64 }),
    idempotence_key: varchar('idempotence_key', { length: 64 }).notNull(),
    /** pending, succeeded, canceled (as the provider's refund statuses). */
    status: varchar('status', { length: 16 }).notNull().default('pending'),
    sum: money('sum').notNull(),
    /** Why: shown to the client; sent to the provider as the refund's description (at most 250). */
    reason: varchar('reason', { length: 250 }).notNull(),
    /** True for the refund of a double payment made by the system. */
    automatic: boolean('automatic').notNull().default(false),
    /**
     * What happens to the payment's entries when the refund succeeds: 'keep' (the client still takes
     * part; refunded in full, a paid entry is payable again) or 'cancel' (status «Возврат»).
     */
    entry_action: varchar('entry_action', { length: 8 }).notNull().default('keep'),
    /** When the provider said it succeeded: income per month is net of refunds in the month they happen. */
    succeeded_at: timestamp('succeeded_at', { withTimezone: true }),
    created_by: integer('created_by').references(() => users.id),
    /** The provider's refusal, when it refused. */
    error: varchar('error', { length: 500 }),
    raw: jsonb('raw'),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    uniqueIndex('payment_refunds_uuid_unique').on(t.uuid),
    uniqueIndex('payment_refunds_idempotence_unique').on(t.idempotence_key),
    index('payment_refunds_payment_idx').on(t.payment_id),
  ],
);

/**
 * Payments of the built-in YooKassa sandbox (used when no shop credentials are set). Kept in the
 * database so the sandbox works across restarts and several app instances.
 */
export const sandboxPayments = pgTable(
  'sandbox_payments',
  {
    id: varchar('id', { length: 64 }).primaryKey(),
    idempotence_key: varchar('idempotence_key', { length: 64 }).notNull(),
    shop_id: varchar('shop_id', { length: 64 }).notNull(),
    status: varchar('status', { length: 32 }).notNull(),
    body: jsonb('body').$type<Record<string, unknown>>().notNull(),
    /** The request's capture flag: false holds the payment for capture (a request-only field, not in the body). */
    capture: boolean('capture').notNull().default(false),
    /** SHA-256 of the request (method, path, canonical JSON body): the same key with another request is refused. */
    request_hash: varchar('request_hash', { length: 64 }),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [uniqueIndex('sandbox_payments_key_unique').on(t.shop_id, t.idempotence_key)],
);

/** Refunds of the built-in YooKassa sandbox. */
export const sandboxRefunds = pgTable(
  'sandbox_refunds',
  {
    id: varchar('id', { length: 64 }).primaryKey(),
    payment_id: varchar('payment_id', { length: 64 }).notNull(),
    idempotence_key: varchar('idempotence_key', { length: 64 }).notNull(),
    shop_id: varchar('shop_id', { length: 64 }).notNull(),
    status: varchar('status', { length: 32 }).notNull(),
    body: jsonb('body').$type<Record<string, unknown>>().notNull(),
    request_hash: varchar('request_hash', { length: 64 }),
    created_at: createdAt(),
  },
  (t) => [uniqueIndex('sandbox_refunds_key_unique').on(t.shop_id, t.idempotence_key), index('sandbox_refunds_payment_idx').on(t.payment_id)],
);
