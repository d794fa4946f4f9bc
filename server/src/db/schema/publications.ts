import { boolean, index, integer, jsonb, pgTable, primaryKey, smallint, text, varchar } from 'drizzle-orm/pg-core';
import { createdAt, deletedAt, id, money, updatedAt } from './columns.ts';
import { dictPublicationCategories, dictServiceSubtypes } from './dictionaries.ts';
import { files } from './documents.ts';
import { entries } from './entries.ts';
import { users } from './users.ts';

/** Journal releases (issues of the journal or collections). */
export const publicationReleases = pgTable(
  'publication_releases',
  {
    id: id(),
    title: varchar('title', { length: 255 }).notNull(),
    dict_service_subtype_id: integer('dict_service_subtype_id').references(() => dictServiceSubtypes.id),
    url: varchar('url', { length: 500 }),
    url_contents: varchar('url_contents', { length: 500 }),
    is_hidden: boolean('is_hidden').notNull().default(false),
    is_published: boolean('is_published').notNull().default(false),
    created_at: createdAt(),
    updated_at: updatedAt(),
    deleted_at: deletedAt(),
  },
  (t) => [index('publication_releases_subtype_idx').on(t.dict_service_subtype_id, t.is_hidden)],
);

export const publicationPrices = pgTable(
  'publication_prices',
  {
    id: id(),
    dict_service_subtype_id: integer('dict_service_subtype_id').notNull().references(() => dictServiceSubtypes.id),
    authors_num: integer('authors_num').notNull(),
    price: money('price').notNull(),
  },
  (t) => [index('publication_prices_subtype_idx').on(t.dict_service_subtype_id)],
);

export const publications = pgTable(
  'publications',
  {
    id: id(),
    title: varchar('title', { length: 500 }).notNull(),
    text: text('text'),
    file_id: integer('file_id').references(() => files.id),
    url: varchar('url', { length: 500 }),
    url_contents: varchar('url_contents', { length: 500 }),
    /** 0 rejected, 1 pending, 2 approved, 3 needs rework, 4 published, 5 taken to journal. */
    status: smallint('status').notNull().default(1),
    release_id: integer('release_id').references(() => publicationReleases.id),
    is_journal: boolean('is_journal').notNull().default(false),
    manager_comment: text('manager_comment'),
    uniqueness: money('uniqueness'),
    highlight: jsonb('highlight').$type<number[]>(),
    dict_category_id: integer('dict_category_id').references(() => dictPublicationCategories.id),
    /** 1 article, 2 methodological development. */
    type: smallint('type'),
    price_id: integer('price_id').references(() => publicationPrices.id),
    created_by: integer('created_by').notNull().references(() => users.id),
    created_at: createdAt(),
    updated_at: updatedAt(),
    deleted_at: deletedAt(),
  },
  (t) => [
    index('publications_status_idx').on(t.status),
    index('publications_release_idx').on(t.release_id),
    index('publications_created_by_idx').on(t.created_by),
    index('publications_title_idx').on(t.title),
  ],
);

export const publicationEntries = pgTable(
  'publication_entries',
  {
    publication_id: integer('publication_id').notNull().references(() => publications.id, { onDelete: 'cascade' }),
    entry_id: integer('entry_id').notNull().references(() => entries.id),
  },
  (t) => [primaryKey({ columns: [t.publication_id, t.entry_id] }), index('publication_entries_entry_idx').on(t.entry_id)],
);

export const publicationFiles = pgTable(
  'publication_files',
  {
    publication_id: integer('publication_id').notNull().references(() => publications.id, { onDelete: 'cascade' }),
    file_id: integer('file_id').notNull().references(() => files.id),
  },
  (t) => [primaryKey({ columns: [t.publication_id, t.file_id] })],
);

export const publicationAuthors = pgTable(
  'publication_authors',
  {
    id: id(),
    publication_id: integer('publication_id').notNull().references(() => publications.id, { onDelete: 'cascade' }),
    user_id: integer('user_id').references(() => users.id),
    fio: varchar('fio', { length: 255 }).notNull(),
    position: integer('position').notNull().default(0),
  },
  (t) => [index('publication_authors_publication_idx').on(t.publication_id), index('publication_authors_user_idx').on(t.user_id)],
);

/** Uniqueness-check matches: a source url, its percent and the highlighted word indexes. */
export const publicationMatches = pgTable(
  'publication_matches',
  {
    id: id(),
    publication_id: integer('publication_id').notNull().references(() => publications.id, { onDelete: 'cascade' }),
    url: varchar('url', { length: 1000 }).notNull(),
    percent: money('percent').notNull(),
    highlight: jsonb('highlight').$type<number[]>().notNull().default([]),
  },
  (t) => [index('publication_matches_publication_idx').on(t.publication_id)],
);
