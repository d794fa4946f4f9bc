import { sql } from 'drizzle-orm';
import { boolean, date, index, integer, pgTable, primaryKey, smallint, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { createdAt, deletedAt, id, updatedAt } from './columns.ts';
import { dictProfiles, dictRegions } from './dictionaries.ts';

export const users = pgTable(
  'users',
  {
    id: id(),
    /** Guests (role 3) have none: they get a reserved address (domain GUEST_EMAIL_DOMAIN), shown as empty. */
    email: varchar('email', { length: 255 }).notNull(),
    /** Stored as +7 (999) 999-99-99. */
    phone: varchar('phone', { length: 32 }),
    password: varchar('password', { length: 255 }),
    last_name: varchar('last_name', { length: 255 }).notNull(),
    first_name: varchar('first_name', { length: 255 }).notNull(),
    middle_name: varchar('middle_name', { length: 255 }),
    organization: varchar('organization', { length: 500 }),
    job_title: varchar('job_title', { length: 500 }),
    learned_from_us: varchar('learned_from_us', { length: 500 }),
    address: varchar('address', { length: 500 }),
    region: varchar('region', { length: 255 }),
    dict_region_id: integer('dict_region_id').references(() => dictRegions.id),
    country: varchar('country', { length: 255 }),
    postcode: varchar('postcode', { length: 16 }),
    note: text('note'),
    role: smallint('role').notNull().default(2),
    is_spb: smallint('is_spb').notNull().default(0),
    avatar_id: integer('avatar_id'),
    contract_step: integer('contract_step'),
    birthday: date('birthday'),
    snils: varchar('snils', { length: 16 }),
    /** The full name in the dative case as an operator corrected it; computed (lvovich) when null. */
    fio_dative: varchar('fio_dative', { length: 500 }),
    /**
     * True when the user has at least one work profile (user_profiles). Kept by triggers on
     * user_profiles (migration 0014_users_list), never written by the app: the users list's
     * 'profile not filled' filter reads it through users_no_profile_idx.
     */
    has_profile: boolean('has_profile').notNull().default(false),
    /**
     * Set when an operator erased the person's data on their request (152-FZ, issue 33): names,
     * contacts and identity data are replaced or removed, money records stay; never restored.
     */
    erased_at: timestamp('erased_at', { withTimezone: true }),
    created_at: createdAt(),
    updated_at: updatedAt(),
    deleted_at: deletedAt(),
  },
  (t) => [
    uniqueIndex('users_email_unique').on(sql`lower(${t.email})`),
    uniqueIndex('users_phone_unique').on(t.phone),
    index('users_role_idx').on(t.role),
    index('users_deleted_at_idx').on(t.deleted_at),
    index('users_is_spb_idx').on(t.is_spb),
    index('users_last_name_idx').on(sql`lower(${t.last_name})`),
    // The operator's users list: newest first, monthly registrations, substring search by name and e-mail.
    index('users_created_at_idx').on(t.created_at),
    index('users_last_name_trgm_idx').using('gin', t.last_name.op('gin_trgm_ops')),
    index('users_first_name_trgm_idx').using('gin', t.first_name.op('gin_trgm_ops')),
    index('users_middle_name_trgm_idx').using('gin', t.middle_name.op('gin_trgm_ops')),
    index('users_email_trgm_idx').using('gin', t.email.op('gin_trgm_ops')),
    index('users_phone_digits_trgm_idx').using('gin', sql`(regexp_replace(${t.phone}, '[^0-9]', '', 'g')) gin_trgm_ops`),
    // The full name as one string: each typed word of a fio filter is one ILIKE on it, in the users
    // list and the entry list (fioCondition in platform/list-query.ts writes the same expression).
    index('users_full_name_trgm_idx').using('gin', sql`(${t.last_name} || ' ' || ${t.first_name} || ' ' || coalesce(${t.middle_name}, '')) gin_trgm_ops`),
    // The same full name in order: the operators' entry list sorted by client (?sort=fio) walks it,
    // and each client's entries come from entries_live_created_by_newest_idx.
    index('users_full_name_sort_idx').on(sql`(${t.last_name} || ' ' || ${t.first_name} || ' ' || coalesce(${t.middle_name}, ''))`),
    // 'Profile not filled' (?profile=0) in list order: the live users without a work profile.
    index('users_no_profile_idx')
      // Ascending, read backwards for 'created_at desc, id desc' (drizzle writes DESC as DESC NULLS LAST).
      .on(t.created_at, t.id)
      .where(sql`not ${t.has_profile} and ${t.deleted_at} is null`),
    // The ids of live users, read without the table: the capped count of a work-profile filter
    // merges them with user_profiles (dict_profile_id, user_id) instead of reading each user's row.
    index('users_live_id_idx')
      .on(t.id)
      .where(sql`${t.deleted_at} is null`),
  ],
);

/**
 * Each user's full name alone, 'last first middle' in lower case (issue 34). The operators' entry list finds the
 * clients a ?fio= names by this narrow table's trigram index: a users row is about 1 KB, and
 * rechecking the index's candidates there read 3-4 times the pages. Kept by a trigger on users
 * (migrations 0032_user_names, 0035_user_names_dates), never written by the app.
 */
export const userNames = pgTable(
  'user_names',
  {
    user_id: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    full_name: text('full_name').notNull(),
    /** The user's, copied (migration 0035): the users list's name search newest first reads this table alone. */
    created_at: timestamp('created_at', { withTimezone: true }).notNull(),
    deleted_at: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [index('user_names_full_name_trgm_idx').using('gin', t.full_name.op('gin_trgm_ops'))],
);

/** A user's work profiles (spec 01 §5 Profile: at least one). */
export const userProfiles = pgTable(
  'user_profiles',
  {
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    dict_profile_id: integer('dict_profile_id')
      .notNull()
      .references(() => dictProfiles.id),
  },
  (t) => [primaryKey({ columns: [t.user_id, t.dict_profile_id] }), index('user_profiles_profile_idx').on(t.dict_profile_id)],
);

/** Bearer sessions. Only the SHA-256 of the token is stored. */
export const accessTokens = pgTable(
  'access_tokens',
  {
    id: id(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    token_hash: varchar('token_hash', { length: 64 }).notNull(),
    remember: boolean('remember').notNull().default(false),
    /** Set when an operator logs in as this user: the operator's id. */
    impersonator_id: integer('impersonator_id'),
    ip: varchar('ip', { length: 64 }),
    user_agent: varchar('user_agent', { length: 500 }),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    last_used_at: timestamp('last_used_at', { withTimezone: true }).defaultNow().notNull(),
    revoked_at: timestamp('revoked_at', { withTimezone: true }),
    created_at: createdAt(),
  },
  (t) => [uniqueIndex('access_tokens_hash_unique').on(t.token_hash), index('access_tokens_user_idx').on(t.user_id)],
);

/**
 * Mailed replacement passwords. The old password keeps working until the mailed one is first used,
 * so nobody can lock a user out by requesting resets for their e-mail.
 */
export const passwordResets = pgTable(
  'password_resets',
  {
    id: id(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: varchar('email', { length: 255 }).notNull(),
    password_hash: varchar('password_hash', { length: 255 }).notNull(),
    expires_at: timestamp('expires_at', { withTimezone: true }).notNull(),
    used_at: timestamp('used_at', { withTimezone: true }),
    created_at: createdAt(),
  },
  (t) => [index('password_resets_user_idx').on(t.user_id)],
);

/** Failed login counters per account and per IP, shared by all app instances. */
export const loginFailures = pgTable('login_failures', {
  key: varchar('key', { length: 300 }).primaryKey(),
  failures: integer('failures').notNull().default(0),
  window_started_at: timestamp('window_started_at', { withTimezone: true }).defaultNow().notNull(),
});
