import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { createdAt, id, money } from './columns.ts';
import { users } from './users.ts';

/**
 * Incoming payments read from the centre's bank statements (1C exchange format, decision 040): one
 * row per payment document, kept once (its identity is unique, so a statement imported twice adds
 * nothing), with what became of it: paid its entries, waits for an operator, assigned or ignored.
 */
export const bankStatementLines = pgTable(
  'bank_statement_lines',
  {
    id: id(),
    /** sha256 of number, date, sum, payer account and INN, and purpose (domain lineIdentityText). */
    identity: varchar('identity', { length: 64 }).notNull(),
    /** paid, manual, assigned, ignored. */
    status: varchar('status', { length: 16 }).notNull(),
    /** Why it waits (partial, excess, ambiguous, unmatched); kept after it is resolved. */
    problem: varchar('problem', { length: 16 }),
    /** What the matching found, in words, for the operator. */
    note: text('note'),
    file_name: varchar('file_name', { length: 255 }).notNull(),
    doc_number: varchar('doc_number', { length: 64 }).notNull(),
    /** dd.mm.yyyy as the bank wrote it. */
    doc_date: varchar('doc_date', { length: 16 }).notNull(),
    received_date: varchar('received_date', { length: 16 }),
    sum: money('sum').notNull(),
    payer_name: varchar('payer_name', { length: 500 }).notNull(),
    payer_inn: varchar('payer_inn', { length: 12 }).notNull(),
    payer_account: varchar('payer_account', { length: 34 }).notNull(),
    purpose: text('purpose').notNull(),
    /** The document's section as in the statement. */
    raw: text('raw').notNull(),
    /** Entries it paid. */
    entry_ids: jsonb('entry_ids').$type<number[]>().notNull().default([]),
    /** Entries named in the purpose or fitting by INN and sum: the operator's hint. */
    candidate_ids: jsonb('candidate_ids').$type<number[]>().notNull().default([]),
    /** The payment rows it made (one per entry or package). */
    payment_ids: jsonb('payment_ids').$type<number[]>().notNull().default([]),
    ignore_reason: text('ignore_reason'),
    imported_by: integer('imported_by').references(() => users.id),
    resolved_by: integer('resolved_by').references(() => users.id),
    resolved_at: timestamp('resolved_at', { withTimezone: true }),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('bank_statement_lines_identity_unique').on(t.identity),
    index('bank_statement_lines_status_idx').on(t.status, t.created_at),
    // Who paid before: a payment without a number is matched by the payer's INN.
    index('bank_statement_lines_payer_inn_idx').on(t.payer_inn),
  ],
);

export type BankStatementLineRow = typeof bankStatementLines.$inferSelect;
