import { bigint, boolean, customType, index, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
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
    dict_service_subtype_id: integer('dict_service_subtype_id')
      .notNull()
      .references(() => dictServiceSubtypes.id),
    authors_num: integer('authors_num').notNull(),
    price: money('price').notNull(),
  },
  (t) => [
    index('publication_prices_subtype_idx').on(t.dict_service_subtype_id),
    // One price per subtype and number of authors (features/publication-prices).
    uniqueIndex('publication_prices_subtype_authors_unique').on(t.dict_service_subtype_id, t.authors_num),
  ],
);

export const publications = pgTable(
  'publications',
  {
    id: id(),
    title: varchar('title', { length: 500 }).notNull(),
    text: text('text'),
    /**
     * Kept by the database beside the text (issue 29): its MD5 (textDigest) and length, so that a
     * save learns whether the text changed, and the change log its length, without reading it back.
     */
    text_digest: text('text_digest').generatedAlwaysAs(sql`md5(text)`),
    text_length: integer('text_length').generatedAlwaysAs(sql`length(text)`),
    file_id: integer('file_id').references(() => files.id),
    url: varchar('url', { length: 500 }),
    url_contents: varchar('url_contents', { length: 500 }),
    /** 0 rejected, 1 pending, 2 approved, 3 needs rework, 4 published, 5 taken to journal. */
    status: smallint('status').notNull().default(1),
    release_id: integer('release_id').references(() => publicationReleases.id),
    is_journal: boolean('is_journal').notNull().default(false),
    manager_comment: text('manager_comment'),
    /** Uniqueness check (features/publications/uniqueness): percent, borrowed word indexes and their character spans. */
    uniqueness: money('uniqueness'),
    highlight: jsonb('highlight').$type<number[]>(),
    uniqueness_spans: jsonb('uniqueness_spans').$type<Array<[number, number]>>(),
    uniqueness_checked_at: timestamp('uniqueness_checked_at', { withTimezone: true }),
    dict_category_id: integer('dict_category_id').references(() => dictPublicationCategories.id),
    /** 1 article, 2 methodological development. */
    type: smallint('type'),
    price_id: integer('price_id').references(() => publicationPrices.id),
    created_by: integer('created_by')
      .notNull()
      .references(() => users.id),
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
    publication_id: integer('publication_id')
      .notNull()
      .references(() => publications.id, { onDelete: 'cascade' }),
    entry_id: integer('entry_id')
      .notNull()
      .references(() => entries.id),
  },
  (t) => [primaryKey({ columns: [t.publication_id, t.entry_id] }), index('publication_entries_entry_idx').on(t.entry_id)],
);

export const publicationFiles = pgTable(
  'publication_files',
  {
    publication_id: integer('publication_id')
      .notNull()
      .references(() => publications.id, { onDelete: 'cascade' }),
    file_id: integer('file_id')
      .notNull()
      .references(() => files.id),
  },
  (t) => [primaryKey({ columns: [t.publication_id, t.file_id] })],
);

export const publicationAuthors = pgTable(
  'publication_authors',
  {
    id: id(),
    publication_id: integer('publication_id')
      .notNull()
      .references(() => publications.id, { onDelete: 'cascade' }),
    user_id: integer('user_id').references(() => users.id),
    fio: varchar('fio', { length: 255 }).notNull(),
    position: integer('position').notNull().default(0),
    /**
     * When the account of user_id agreed to be linked (an accepted invitation, or an operator linked
     * it). Until then the link is an invitation: the publication is not that user's.
     */
    accepted_at: timestamp('accepted_at', { withTimezone: true }),
  },
  (t) => [index('publication_authors_publication_idx').on(t.publication_id), index('publication_authors_user_idx').on(t.user_id)],
);

/**
 * Accounts that declined to be a publication's co-author: the author may not invite them to it
 * again (issue 29); only an operator may link them (operators act for the centre).
 */
export const publicationDeclinedCoAuthors = pgTable(
  'publication_declined_co_authors',
  {
    publication_id: integer('publication_id')
      .notNull()
      .references(() => publications.id, { onDelete: 'cascade' }),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id),
    declined_at: timestamp('declined_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.publication_id, t.user_id] })],
);

/** Uniqueness-check matches: a source url, its percent and the highlighted word indexes. */
export const publicationMatches = pgTable(
  'publication_matches',
  {
    id: id(),
    publication_id: integer('publication_id')
      .notNull()
      .references(() => publications.id, { onDelete: 'cascade' }),
    url: varchar('url', { length: 1000 }).notNull(),
    /** The stored publication the text was found in (null once that publication is gone). */
    source_publication_id: integer('source_publication_id').references(() => publications.id, { onDelete: 'set null' }),
    percent: money('percent').notNull(),
    highlight: jsonb('highlight').$type<number[]>().notNull().default([]),
    /** Character spans (UTF-16, end exclusive) of the checked text found in this source. */
    spans: jsonb('spans').$type<Array<[number, number]>>().notNull().default([]),
  },
  (t) => [index('publication_matches_publication_idx').on(t.publication_id)],
);

/**
 * Winnowed shingle hashes of every stored publication text: one row per fingerprint, looked up by
 * hash through a btree (hash, publication_id, position) that answers the candidate query by itself (index-only scan).
 */
export const publicationFingerprints = pgTable(
  'publication_fingerprints',
  {
    hash: bigint('hash', { mode: 'bigint' }).notNull(),
    publication_id: integer('publication_id')
      .notNull()
      .references(() => publications.id, { onDelete: 'cascade' }),
    /** Index of the shingle's first word in the publication's plain text. */
    position: integer('position').notNull(),
  },
  (t) => [
    index('publication_fingerprints_hash_idx').on(t.hash, t.publication_id, t.position),
    index('publication_fingerprints_publication_idx').on(t.publication_id),
  ],
);

/**
 * Stop-list of the uniqueness check: hashes found stored for more than a check's `maxPostings`
 * texts (stock phrases), with that count (a lower bound), so later checks do not probe them. Filled
 * by the checks themselves (and by the speed bench after a bulk load).
 */
export const publicationCommonHashes = pgTable('publication_common_hashes', {
  hash: bigint('hash', { mode: 'bigint' }).primaryKey(),
  postings: integer('postings').notNull(),
});

/**
 * What the uniqueness check's alignment needs of a stored text: one 32-bit code per word (stem hash,
 * function-word bit; engine.ts `stemCodes`), little-endian. Written with the fingerprints, so a check
 * neither loads nor re-stems its candidates' texts.
 */
const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

export const publicationStems = pgTable('publication_stems', {
  publication_id: integer('publication_id')
    .primaryKey()
    .references(() => publications.id, { onDelete: 'cascade' }),
  codes: bytea('codes').notNull(),
});
