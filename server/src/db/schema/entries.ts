import { boolean, index, integer, pgTable, smallint, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { createdAt, deletedAt, id, money, updatedAt } from './columns.ts';
import { servicePackages, serviceSections, services } from './services.ts';
import { users } from './users.ts';

/**
 * One purchase of a service package: its entries are bought, removed and paid together at `price`
 * (the package price when enrolling). Once `broken_at` is set (an operator removed or paid part of
 * it), the remaining unpaid entries are ordinary entries at their services' list prices.
 */
export const packageEnrollments = pgTable(
  'package_enrollments',
  {
    id: id(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id),
    service_package_id: integer('service_package_id')
      .notNull()
      .references(() => servicePackages.id),
    title: varchar('title', { length: 255 }).notNull(),
    price: money('price').notNull(),
    broken_at: timestamp('broken_at', { withTimezone: true }),
    created_at: createdAt(),
  },
  (t) => [index('package_enrollments_user_idx').on(t.user_id)],
);

export const entries = pgTable(
  'entries',
  {
    id: id(),
    /** Human-readable, unique. */
    number: varchar('number', { length: 32 }).notNull(),
    /** The client the entry belongs to. */
    created_by: integer('created_by')
      .notNull()
      .references(() => users.id),
    /** Who actually made the entry (an operator for guest entries), when not the client. */
    author_id: integer('author_id').references(() => users.id),
    service_id: integer('service_id')
      .notNull()
      .references(() => services.id),
    /**
     * A copy of the service's type (services.dict_type_id) for the operators' type filter, kept by
     * triggers (migration 0014): set on insert and on a change of service_id, and rewritten when a
     * service's type changes. Never written by the application.
     */
    service_type_id: integer('service_type_id'),
    section_id: integer('section_id').references(() => serviceSections.id),
    /** 1 bank, 2 office by card, 3 online, 4 other. */
    pay_type: smallint('pay_type').notNull().default(3),
    /** 0 in-person, 1 remote. */
    is_extramural: smallint('is_extramural').notNull().default(0),
    price: money('price').notNull().default(0),
    /**
     * Money refunded for this entry while it keeps its status (its share of succeeded refunds of its
     * payments): income is price less this. Back to 0 when a full refund leaves it unpaid again.
     */
    refunded: money('refunded').notNull().default(0),
    /** 1 not paid, 2 paid, 3 done. */
    status: smallint('status').notNull().default(1),
    is_service_package: boolean('is_service_package').notNull().default(false),
    service_package_id: integer('service_package_id').references(() => servicePackages.id),
    /** The package purchase this entry belongs to: bought, removed and paid as a whole. */
    package_enrollment_id: integer('package_enrollment_id').references(() => packageEnrollments.id),
    /** Provider payment id of the latest online attempt. */
    payment_uuid: varchar('payment_uuid', { length: 64 }),
    certificate_number: varchar('certificate_number', { length: 12 }),
    registration_number: varchar('registration_number', { length: 64 }),
    paid_at: timestamp('paid_at', { withTimezone: true }),
    done_at: timestamp('done_at', { withTimezone: true }),
    /**
     * Set with deleted_at when the unpaid entry was cancelled because its publication was rejected or
     * deleted (nothing is owed for it); an operator taking the rejection back restores exactly these.
     */
    publication_cancelled_at: timestamp('publication_cancelled_at', { withTimezone: true }),
    created_at: createdAt(),
    updated_at: updatedAt(),
    deleted_at: deletedAt(),
  },
  (t) => [
    uniqueIndex('entries_number_unique').on(t.number),
    uniqueIndex('entries_certificate_number_unique').on(t.certificate_number),
    index('entries_created_by_idx').on(t.created_by, t.created_at),
    index('entries_service_idx').on(t.service_id, t.section_id),
    index('entries_section_idx').on(t.section_id),
    // Operators' list of one service, newest first, and seat counts.
    index('entries_live_service_newest_idx')
      .on(t.service_id, t.created_at.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`deleted_at is null`),
    // «Все услуги»: entries, paid entries and income of a service from the index alone (sorting by them reads every service's).
    index('entries_live_service_sales_idx')
      .on(t.service_id, t.status, t.price, t.refunded)
      .where(sql`deleted_at is null`),
    // The number filter matches a prefix ('2611-0004').
    index('entries_number_prefix_idx').on(t.number.op('varchar_pattern_ops')),
    index('entries_status_idx').on(t.status),
    index('entries_created_at_idx').on(t.created_at),
    index('entries_payment_uuid_idx').on(t.payment_uuid),
    index('entries_active_user_idx')
      .on(t.created_by, t.status)
      .where(sql`deleted_at is null`),
    index('entries_package_enrollment_idx').on(t.package_enrollment_id),
    // The operators' list (newest first) narrowed to the clients matching ?fio=, and a client's own list.
    index('entries_live_created_by_newest_idx')
      .on(t.created_by, t.created_at.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`deleted_at is null`),
    // The operators' list by service type (?type=, alone or with ?status=), newest first.
    index('entries_live_type_newest_idx')
      .on(t.service_type_id, t.created_at.desc().nullsFirst(), t.id.desc().nullsFirst(), t.status)
      .where(sql`deleted_at is null`),
    // The operators' list, newest first, narrowed to many clients or services (?fio=, ?service=
    // matching more than a hundred): the page's ids from this index alone, its columns the filters.
    index('entries_live_newest_idx')
      .on(t.created_at.desc().nullsFirst(), t.id.desc().nullsFirst(), t.created_by, t.service_id, t.service_type_id, t.status)
      .where(sql`deleted_at is null`),
    // The operators' list of deleted entries (?deleted=1), newest first.
    index('entries_deleted_newest_idx')
      .on(t.created_at.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`deleted_at is not null`),
    // The operators' list sorted by price or status (?sort=price, ?sort=-status; read backwards for
    // descending), alone or with the type or status filter (free entries are never unpaid, so
    // ?status=1&sort=price would walk every free entry of the plain price index first).
    index('entries_live_price_idx')
      .on(t.price, t.id)
      .where(sql`deleted_at is null`),
    index('entries_live_status_idx')
      .on(t.status, t.id)
      .where(sql`deleted_at is null`),
    index('entries_live_type_price_idx')
      .on(t.service_type_id, t.price, t.id)
      .where(sql`deleted_at is null`),
    index('entries_live_status_price_idx')
      .on(t.status, t.price, t.id)
      .where(sql`deleted_at is null`),
  ],
);

export const entryTheses = pgTable(
  'entry_theses',
  {
    id: id(),
    entry_id: integer('entry_id')
      .notNull()
      .references(() => entries.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [uniqueIndex('entry_theses_entry_unique').on(t.entry_id)],
);

/** Competition participant of an entry (contest type 11). */
export const competitionMembers = pgTable(
  'competition_members',
  {
    id: id(),
    entry_id: integer('entry_id')
      .notNull()
      .references(() => entries.id, { onDelete: 'cascade' }),
    fio: varchar('fio', { length: 255 }).notNull(),
    title: varchar('title', { length: 500 }).notNull(),
    comment: text('comment').notNull(),
    created_at: createdAt(),
  },
  (t) => [uniqueIndex('competition_members_entry_unique').on(t.entry_id)],
);

export const notifications = pgTable(
  'notifications',
  {
    id: id(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    checked: boolean('checked').notNull().default(false),
    text: text('text').notNull(),
    text_clear: text('text_clear').notNull(),
    icon: varchar('icon', { length: 64 }),
    color: varchar('color', { length: 32 }),
    url: varchar('url', { length: 500 }),
    created_at: createdAt(),
  },
  (t) => [index('notifications_user_checked_idx').on(t.user_id, t.checked, t.created_at)],
);

export const reviews = pgTable(
  'reviews',
  {
    id: id(),
    user_id: integer('user_id')
      .notNull()
      .references(() => users.id),
    text: text('text').notNull(),
    /** 0 pending, 1 accepted. */
    status: smallint('status').notNull().default(0),
    created_at: createdAt(),
    updated_at: updatedAt(),
    deleted_at: deletedAt(),
  },
  (t) => [index('reviews_status_idx').on(t.status)],
);
