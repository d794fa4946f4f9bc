import type { RoleCode } from '../common/codes.ts';

export interface ProfileBadge {
  id: number;
  fdv: string;
  color: string | null;
}

/**
 * A user's own data with the figures of their entries, the same for the user themself (GET /api/get)
 * and for operators (the users screen, ManagedUser). Money in rubles.
 */
export interface UserDetails {
  id: number;
  fio: string;
  last_name: string;
  first_name: string;
  middle_name: string | null;
  phone: string | null;
  organization: string | null;
  job_title: string | null;
  learned_from_us: string | null;
  address: string | null;
  region: string | null;
  dict_region_id: number | null;
  country: string | null;
  postcode: string | null;
  note: string | null;
  role: RoleCode;
  role_label: string;
  is_spb: 0 | 1;
  avatar_url: string | null;
  initials: string;
  profiles: ProfileBadge[];
  /** All entries (not deleted). */
  entries_num: number;
  /** Paid entries (status 2 or 3). */
  service_count: number;
  /** Amount due: the price of unpaid entries. */
  left_sum: number;
  created_at_formatted: string;
  deleted_at: string | null;
}

/** GET /api/get: the current user with computed fields (spec 01 §3). Money in rubles. */
export interface CurrentUser extends UserDetails {
  email: string;
  avatar_id: number | null;
  entries_unpaid_num: number;
  future_points: number;
  points: number;
  closestService: { title: string; begda_formatted: string } | null;
  is_documents_upload_allowed: boolean;
  is_contract_allowed: boolean;
  contract_step: number | null;
  /** Set while an operator is logged in as this user (the banner 'Вы вошли как …'). */
  impersonator?: { id: number; fio: string } | null;
}

export function fullName(u: { last_name: string; first_name: string; middle_name?: string | null }): string {
  return [u.last_name, u.first_name, u.middle_name].filter(Boolean).join(' ');
}

export function initialsOf(u: { last_name: string; first_name: string }): string {
  return `${u.first_name.charAt(0)}${u.last_name.charAt(0)}`.toUpperCase();
}
