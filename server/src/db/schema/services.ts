import { boolean, index, integer, pgTable, primaryKey, smallint, text, timestamp, varchar } from 'drizzle-orm/pg-core';
import { createdAt, deletedAt, id, money, updatedAt } from './columns.ts';
import { dictProfiles, dictServiceSubtypes, dictServiceTypes, leadings } from './dictionaries.ts';

export const services = pgTable(
  'services',
  {
    id: id(),
    title: varchar('title', { length: 100 }).notNull(),
    description: text('description'),
    price: money('price').notNull().default(0),
    points: integer('points').notNull().default(0),
    is_visible: boolean('is_visible').notNull().default(true),
    is_done: boolean('is_done').notNull().default(false),
    is_publication: boolean('is_publication').notNull().default(false),
    is_thesis_needed: boolean('is_thesis_needed').notNull().default(false),
    dict_type_id: integer('dict_type_id')
      .notNull()
      .references(() => dictServiceTypes.id),
    dict_subtype_id: integer('dict_subtype_id').references(() => dictServiceSubtypes.id),
    /** 1 in-person and remote, 2 in-person, 3 remote. */
    participation_type: smallint('participation_type').notNull().default(1),
    /** 1 specific dates, 2 permanent, 3 open dates. */
    date_type: smallint('date_type').notNull().default(1),
    begda: timestamp('begda', { withTimezone: true }),
    endda: timestamp('endda', { withTimezone: true }),
    /** 0 means the default of 27. */
    max_participants: integer('max_participants').notNull().default(0),
    moodle_id: integer('moodle_id'),
    hours: integer('hours'),
    days: integer('days'),
    template_certificate_id: integer('template_certificate_id'),
    template_program_id: integer('template_program_id'),
    template_participation_id: integer('template_participation_id'),
    joomla_article_template_id: integer('joomla_article_template_id'),
    joomla_article_id: integer('joomla_article_id'),
    /** Category of the article on the site (for its link). */
    joomla_catid: integer('joomla_catid'),
    /** null never sent, 'pending' queued, 'published', 'error' (the last try failed; retried by the job). */
    joomla_status: varchar('joomla_status', { length: 16 }),
    joomla_error: text('joomla_error'),
    joomla_published_at: timestamp('joomla_published_at', { withTimezone: true }),
    joomla_intro_html: text('joomla_intro_html'),
    joomla_additional_html: text('joomla_additional_html'),
    joomla_video_iframe: text('joomla_video_iframe'),
    image_id: integer('image_id'),
    created_at: createdAt(),
    updated_at: updatedAt(),
    deleted_at: deletedAt(),
  },
  (t) => [
    index('services_type_subtype_idx').on(t.dict_type_id, t.dict_subtype_id),
    index('services_begda_idx').on(t.begda),
    index('services_visible_idx').on(t.is_visible),
    index('services_deleted_at_idx').on(t.deleted_at),
    // Title search (catalogue filter, the top-bar search): ILIKE '%word%' through trigrams.
    index('services_title_trgm_idx').using('gin', t.title.op('gin_trgm_ops')),
    // Titles in order: the operators' entry list sorted by service (?sort=service) walks it, and each
    // service's entries come from entries_live_service_newest_idx.
    index('services_title_sort_idx').on(t.title),
  ],
);

/**
 * Each service's title alone, in lower case (issue 34), as user_names is for the users: the
 * operators' entry list finds the services a ?service= word names by this narrow table's trigram
 * index. In services the index's candidates were rechecked with ILIKE (lowering every title again)
 * in rows of about 500 bytes. Kept by a trigger on services (migration 0034_service_titles), never
 * written by the app.
 */
export const serviceTitles = pgTable(
  'service_titles',
  {
    service_id: integer('service_id')
      .primaryKey()
      .references(() => services.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
  },
  (t) => [index('service_titles_title_trgm_idx').using('gin', t.title.op('gin_trgm_ops'))],
);

export const serviceSections = pgTable(
  'service_sections',
  {
    id: id(),
    service_id: integer('service_id')
      .notNull()
      .references(() => services.id, { onDelete: 'cascade' }),
    title: varchar('title', { length: 500 }).notNull(),
    deleted_at: deletedAt(),
  },
  (t) => [index('service_sections_service_idx').on(t.service_id)],
);

export const serviceProfiles = pgTable(
  'service_profiles',
  {
    service_id: integer('service_id')
      .notNull()
      .references(() => services.id, { onDelete: 'cascade' }),
    dict_profile_id: integer('dict_profile_id')
      .notNull()
      .references(() => dictProfiles.id),
  },
  (t) => [primaryKey({ columns: [t.service_id, t.dict_profile_id] }), index('service_profiles_profile_idx').on(t.dict_profile_id)],
);

export const serviceLeadings = pgTable(
  'service_leadings',
  {
    service_id: integer('service_id')
      .notNull()
      .references(() => services.id, { onDelete: 'cascade' }),
    leading_id: integer('leading_id')
      .notNull()
      .references(() => leadings.id),
  },
  (t) => [primaryKey({ columns: [t.service_id, t.leading_id] }), index('service_leadings_leading_idx').on(t.leading_id)],
);

export const servicePackages = pgTable(
  'service_packages',
  {
    id: id(),
    title: varchar('title', { length: 255 }).notNull(),
    description: text('description'),
    color: varchar('color', { length: 32 }).notNull().default('purple'),
    price: money('price').notNull().default(0),
    old_price: money('old_price'),
    points: integer('points').notNull().default(0),
    is_pinned: boolean('is_pinned').notNull().default(false),
    dict_profile_id: integer('dict_profile_id').references(() => dictProfiles.id),
    created_at: createdAt(),
    updated_at: updatedAt(),
    deleted_at: deletedAt(),
  },
  (t) => [index('service_packages_pinned_profile_idx').on(t.is_pinned, t.dict_profile_id)],
);

export const servicePackageServices = pgTable(
  'service_package_services',
  {
    service_package_id: integer('service_package_id')
      .notNull()
      .references(() => servicePackages.id, { onDelete: 'cascade' }),
    service_id: integer('service_id')
      .notNull()
      .references(() => services.id),
    position: integer('position').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.service_package_id, t.service_id] })],
);
