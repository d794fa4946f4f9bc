import { z } from 'zod';
import { Role } from '../common/codes.ts';
import { dataAnswer, isoTimestamp } from '../common/answers.ts';

/** A role on the wire: 1 operator, 2 user, 3 guest. */
export const roleCodeSchema = z.union([z.literal(Role.operator), z.literal(Role.user), z.literal(Role.guest)]);

/** A work profile as a badge (id, name, colour). */
export const profileBadgeSchema = z.object({
  id: z.number().int(),
  fdv: z.string(),
  color: z.string().nullable(),
});
export type ProfileBadge = z.output<typeof profileBadgeSchema>;

/**
 * A user's own data with the figures of their entries, the same for the user themself (GET /api/get)
 * and for operators (the users screen, ManagedUser). Money in rubles.
 */
export const userDetailsSchema = z.object({
  id: z.number().int(),
  fio: z.string(),
  last_name: z.string(),
  first_name: z.string(),
  middle_name: z.string().nullable(),
  phone: z.string().nullable(),
  organization: z.string().nullable(),
  job_title: z.string().nullable(),
  learned_from_us: z.string().nullable(),
  address: z.string().nullable(),
  region: z.string().nullable(),
  dict_region_id: z.number().int().nullable(),
  country: z.string().nullable(),
  postcode: z.string().nullable(),
  note: z.string().nullable(),
  role: roleCodeSchema,
  role_label: z.string(),
  is_spb: z.union([z.literal(0), z.literal(1)]),
  avatar_url: z.string().nullable(),
  initials: z.string(),
  profiles: z.array(profileBadgeSchema),
  /** All entries (not deleted). */
  entries_num: z.number().int(),
  /** Paid entries (status 2 or 3). */
  service_count: z.number().int(),
  /** Amount due: the price of unpaid entries. */
  left_sum: z.number(),
  created_at_formatted: z.string(),
  deleted_at: isoTimestamp.nullable(),
});
export type UserDetails = z.output<typeof userDetailsSchema>;

/** GET /api/get: the current user with computed fields (spec 01 §3). Money in rubles. */
export const currentUserSchema = userDetailsSchema.extend({
  email: z.string(),
  avatar_id: z.number().int().nullable(),
  entries_unpaid_num: z.number().int(),
  future_points: z.number().int(),
  points: z.number().int(),
  closestService: z.object({ title: z.string(), begda_formatted: z.string() }).nullable(),
  is_documents_upload_allowed: z.boolean(),
  is_contract_allowed: z.boolean(),
  contract_step: z.number().int().nullable(),
  /** Set while an operator is logged in as this user (the banner 'Вы вошли как …'). */
  impersonator: z.object({ id: z.number().int(), fio: z.string() }).nullable().optional(),
});
export type CurrentUser = z.output<typeof currentUserSchema>;

/** GET /api/get: the current user as it is, without an envelope. */
export const currentUserAnswer = currentUserSchema;

/** PUT /api/user/{id}, store-profiles, upload-avatar: the user as saved (null only if gone meanwhile) and a notice. */
export const currentUserSavedAnswer = dataAnswer(currentUserSchema.nullable()).extend({ message: z.string() });

/** GET /api/public-config: settings the web app reads at run time. */
export const publicConfigAnswer = dataAnswer(z.object({ old_cabinet_url: z.string() }));

export function fullName(u: { last_name: string; first_name: string; middle_name?: string | null }): string {
  return [u.last_name, u.first_name, u.middle_name].filter(Boolean).join(' ');
}

export function initialsOf(u: { last_name: string; first_name: string }): string {
  return `${u.first_name.charAt(0)}${u.last_name.charAt(0)}`.toUpperCase();
}
