import { boolean, index, integer, jsonb, pgTable, smallint, text, varchar } from 'drizzle-orm/pg-core';
import { id } from './columns.ts';

// Reference lists (spec 01 §3 Dictionaries, spec 02 §3). Each item has id and fdv (its display name).

export const dictProfiles = pgTable('dict_profiles', {
  id: id(),
  fdv: varchar('fdv', { length: 255 }).notNull(),
  color: varchar('color', { length: 32 }),
  joomla_tag_id: integer('joomla_tag_id'),
});

export const dictServiceTypes = pgTable('dict_service_types', {
  id: id(),
  fdv: varchar('fdv', { length: 255 }).notNull(),
  dv: varchar('dv', { length: 255 }),
  points: integer('points').notNull().default(0),
  description: text('description'),
  color: varchar('color', { length: 32 }),
  icon: varchar('icon', { length: 64 }),
  is_contract_needed: boolean('is_contract_needed').notNull().default(false),
  is_publication: boolean('is_publication').notNull().default(false),
  joomla_category_id: integer('joomla_category_id'),
  template_certificate_id: integer('template_certificate_id'),
  template_page_id: integer('template_page_id'),
});

export const dictServiceSubtypes = pgTable(
  'dict_service_subtypes',
  {
    id: id(),
    fdv: varchar('fdv', { length: 255 }).notNull(),
    dv: varchar('dv', { length: 255 }),
    dict_service_type_id: integer('dict_service_type_id')
      .notNull()
      .references(() => dictServiceTypes.id),
    points: integer('points').notNull().default(0),
    is_spb: smallint('is_spb'),
    is_publication: boolean('is_publication').notNull().default(false),
    publication_has_file: boolean('publication_has_file').notNull().default(false),
    joomla_category_id: integer('joomla_category_id'),
    joomla_tag_id: integer('joomla_tag_id'),
  },
  (t) => [index('dict_service_subtypes_type_idx').on(t.dict_service_type_id)],
);

export const dictMacrosCategories = pgTable('dict_macros_categories', {
  id: id(),
  fdv: varchar('fdv', { length: 255 }).notNull(),
});

export const dictMacroses = pgTable(
  'dict_macroses',
  {
    id: id(),
    fdv: varchar('fdv', { length: 255 }).notNull(),
    description: text('description'),
    dict_category_id: integer('dict_category_id')
      .notNull()
      .references(() => dictMacrosCategories.id),
  },
  (t) => [index('dict_macroses_category_idx').on(t.dict_category_id)],
);

export const dictTemplateTypes = pgTable('dict_template_types', {
  id: id(),
  fdv: varchar('fdv', { length: 255 }).notNull(),
  dv: varchar('dv', { length: 64 }),
  icon: varchar('icon', { length: 64 }),
  /** Macro category ids offered beside the editor for this template type. */
  available_categories: jsonb('available_categories').$type<number[]>().notNull().default([]),
});

export const dictEvents = pgTable('dict_events', {
  id: id(),
  fdv: varchar('fdv', { length: 255 }).notNull(),
  icon: varchar('icon', { length: 64 }),
  color: varchar('color', { length: 32 }),
  /** Notification template (templates of type 5) used for the in-cabinet notification. */
  template_id: integer('template_id'),
  is_mailing: boolean('is_mailing').notNull().default(true),
  /** E-mail subject. */
  dv: varchar('dv', { length: 255 }),
  /** E-mail body (HTML with macros). */
  content: text('content'),
});

export const dictPublicationCategories = pgTable('dict_publication_categories', {
  id: id(),
  fdv: varchar('fdv', { length: 255 }).notNull(),
  alias: varchar('alias', { length: 255 }),
  description: text('description'),
  joomla_category_id: integer('joomla_category_id'),
});

export const dictDocumentTypes = pgTable('dict_document_types', {
  id: id(),
  fdv: varchar('fdv', { length: 255 }).notNull(),
});

export const dictRegions = pgTable('dict_regions', {
  id: id(),
  fdv: varchar('fdv', { length: 255 }).notNull(),
  code: varchar('code', { length: 8 }),
});

/** Leading persons of services (/manager/leadings). */
export const leadings = pgTable('leadings', {
  id: id(),
  fio: varchar('fio', { length: 255 }).notNull(),
  description: text('description'),
  url: varchar('url', { length: 500 }),
});
