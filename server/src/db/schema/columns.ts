import { integer, numeric, timestamp } from 'drizzle-orm/pg-core';

// Shared column builders. Money is numeric(12,2) in rubles, read as a JS number for the API;
// sums are computed in SQL, never by adding floats in JS. See docs/decisions/002-money.md.
export const id = () => integer('id').primaryKey().generatedByDefaultAsIdentity();
export const money = (name: string) => numeric(name, { precision: 12, scale: 2, mode: 'number' });
export const createdAt = () => timestamp('created_at', { withTimezone: true }).defaultNow().notNull();
export const updatedAt = () => timestamp('updated_at', { withTimezone: true }).defaultNow().notNull();
export const deletedAt = () => timestamp('deleted_at', { withTimezone: true });
