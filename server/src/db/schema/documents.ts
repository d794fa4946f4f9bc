import { date, index, integer, pgTable, smallint, text, varchar } from 'drizzle-orm/pg-core';
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
    deleted_at: deletedAt(),
  },
  (t) => [index('files_user_idx').on(t.user_id)],
);

/** Identity document (passport). Locked once saved. */
export const identityDocuments = pgTable(
  'identity_documents',
  {
    id: id(),
    user_id: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    dict_document_type_id: integer('dict_document_type_id').notNull().default(1).references(() => dictDocumentTypes.id),
    number: varchar('number', { length: 32 }).notNull(),
    date: date('date').notNull(),
    issued_by: text('issued_by').notNull(),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [index('identity_documents_user_idx').on(t.user_id)],
);

/** A user's uploaded documents: kind is passport, education, snils, surname, other or consent. */
export const userDocuments = pgTable(
  'user_documents',
  {
    id: id(),
    user_id: integer('user_id').notNull().references(() => users.id, { onDelete: 'cascade' }),
    kind: varchar('kind', { length: 32 }).notNull(),
    file_id: integer('file_id').notNull().references(() => files.id),
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
    entry_id: integer('entry_id').notNull().references(() => entries.id),
    user_id: integer('user_id').notNull().references(() => users.id),
    service_id: integer('service_id').notNull().references(() => services.id),
    /** 1 pending, 2 approved, 3 rejected. */
    status: smallint('status').notNull().default(1),
    comment: text('comment'),
    file_id: integer('file_id').references(() => files.id),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [index('contracts_status_idx').on(t.status), index('contracts_entry_idx').on(t.entry_id), index('contracts_user_idx').on(t.user_id)],
);
