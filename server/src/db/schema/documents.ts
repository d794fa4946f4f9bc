import { date, index, integer, pgTable, smallint, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { createdAt, deletedAt, id, updatedAt } from './columns.ts';
import { dictDocumentTypes } from './dictionaries.ts';
import { entries } from './entries.ts';
import { services } from './services.ts';
import { users } from './users.ts';

/** Uploaded files, stored under random names outside any public folder. */
export const files = pgTable(
  'files',
  {
    id: id(),
    /** Owner; only the owner and operators may read private files. */
    user_id: integer('user_id').references(() => users.id),
    name: varchar('name', { length: 255 }).notNull(),
    storage_key: varchar('storage_key', { length: 255 }).notNull(),
    mime: varchar('mime', { length: 100 }).notNull(),
    size: integer('size').notNull(),
    created_at: createdAt(),
    /** Set when nothing live uses the file any more (a deleted document or publication, a replaced avatar). */
    deleted_at: deletedAt(),
    /** Set when the retention job removed the bytes from storage, DELETED_FILES_RETENTION_DAYS after deleted_at. */
    purged_at: timestamp('purged_at', { withTimezone: true }),
  },
  (t) => [
    index('files_user_idx').on(t.user_id),
    index('files_to_purge_idx')
      .on(t.deleted_at)
      .where(sql`purged_at is null and deleted_at is not null`),
  ],
);

/**
 * Short-lived links to private files for the browser (a new tab cannot send the session's Bearer
 * header): a random token, of which only the SHA-256 is kept, valid for a few minutes.
 */
export const fileLinks = pgTable(
  'file_links',
  {
    token_hash: varchar('token_hash', { length: 64 }).primaryKey(),
    file_id: integer('file_id')
      .notNull()
      .references(() => files.id),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    created_at: createdAt(),
  },
  (t) => [index('file_links_expires_idx').on(t.expires_at)],
);

/** Identity document (passport). Locked once saved. */
export const identityDocuments = pgTable(
  'identity_documents',
  {
    id: id(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    dict_document_type_id: integer('dict_document_type_id')
      .notNull()
      .default(1)
      .references(() => dictDocumentTypes.id),
    number: varchar('number', { length: 32 }).notNull(),
    date: date('date').notNull(),
    issued_by: text('issued_by').notNull(),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  // One passport per user: two racing first saves cannot both win.
  (t) => [uniqueIndex('identity_documents_user_unique').on(t.user_id)],
);

/** A user's uploaded documents: kind is passport, education, snils, surname, other or consent. */
export const userDocuments = pgTable(
  'user_documents',
  {
    id: id(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: varchar('kind', { length: 32 }).notNull(),
    file_id: integer('file_id')
      .notNull()
      .references(() => files.id),
    dict_document_type_id: integer('dict_document_type_id').references(() => dictDocumentTypes.id),
    created_at: createdAt(),
  },
  (t) => [index('user_documents_user_kind_idx').on(t.user_id, t.kind)],
);

/** Signed contract scan of an entry, reviewed by operators. */
export const contracts = pgTable(
  'contracts',
  {
    id: id(),
    entry_id: integer('entry_id')
      .notNull()
      .references(() => entries.id),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id),
    service_id: integer('service_id')
      .notNull()
      .references(() => services.id),
    /** 1 pending, 2 approved, 3 rejected. */
    status: smallint('status').notNull().default(1),
    comment: text('comment'),
    file_id: integer('file_id').references(() => files.id),
    /** The operator who accepted or rejected the current scan, and when. */
    reviewed_by: integer('reviewed_by').references(() => users.id),
    reviewed_at: timestamp('reviewed_at', { withTimezone: true }),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  // One contract per entry: a new scan replaces the file of the same row.
  (t) => [index('contracts_status_idx').on(t.status), uniqueIndex('contracts_entry_unique').on(t.entry_id), index('contracts_user_idx').on(t.user_id)],
);

/** The last registration number given in each (Moscow) calendar year; its row lock serialises operators. */
export const registrationCounters = pgTable('registration_counters', {
  year: integer('year').primaryKey(),
  last_seq: integer('last_seq').notNull(),
});

/** Every registration number given: unique, consecutive within a year (year, seq), one per entry. */
export const registrationNumbers = pgTable(
  'registration_numbers',
  {
    id: id(),
    year: integer('year').notNull(),
    seq: integer('seq').notNull(),
    number: varchar('number', { length: 64 }).notNull(),
    entry_id: integer('entry_id')
      .notNull()
      .references(() => entries.id),
    created_by: integer('created_by').references(() => users.id),
    created_at: createdAt(),
  },
  (t) => [
    uniqueIndex('registration_numbers_year_seq_unique').on(t.year, t.seq),
    uniqueIndex('registration_numbers_number_unique').on(t.number),
    uniqueIndex('registration_numbers_entry_unique').on(t.entry_id),
  ],
);

/**
 * Documents the cabinet issued (a certificate of an entry), each with a random verification code
 * printed on the paper and in its QR code (APP_URL/verify/<code>, decision 039). One live code per
 * entry and kind: a re-print keeps it; refunding, cancelling or deleting the entry, or an operator,
 * revokes it (a later print then issues a new one).
 */
export const issuedDocuments = pgTable(
  'issued_documents',
  {
    id: id(),
    entry_id: integer('entry_id')
      .notNull()
      .references(() => entries.id),
    /** 'certificate' (the PDF and the .docx of one certificate are one document). */
    kind: varchar('kind', { length: 32 }).notNull(),
    code: varchar('code', { length: 16 }).notNull(),
    issued_at: timestamp('issued_at', { withTimezone: true }).notNull().defaultNow(),
    issued_by: integer('issued_by').references(() => users.id),
    revoked_at: timestamp('revoked_at', { withTimezone: true }),
    revoked_by: integer('revoked_by').references(() => users.id),
    revoked_reason: text('revoked_reason'),
  },
  (t) => [
    uniqueIndex('issued_documents_code_unique').on(t.code),
    uniqueIndex('issued_documents_live_unique')
      .on(t.entry_id, t.kind)
      .where(sql`revoked_at is null`),
    index('issued_documents_entry_idx').on(t.entry_id),
  ],
);
