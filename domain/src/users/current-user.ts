import type { RoleCode } from '../common/codes.ts';

export interface ProfileBadge {
  id: number;
  fdv: string;
  color: string | null;
}

/** GET /api/get: the current user with computed fields (spec 01 §3). Money in rubles. */
export interface CurrentUser {
  id: number;
  email: string;
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
  avatar_id: number | null;
  avatar_url: string | null;
  initials: string;
  entries_num: number;
  entries_unpaid_num: number;
  future_points: number;
  points: number;
  left_sum: number;
  service_count: number;
  closestService: { title: string; begda_formatted: string } | null;
  profiles: ProfileBadge[];
  is_documents_upload_allowed: boolean;
  is_contract_allowed: boolean;
  contract_step: number | null;
  created_at_formatted: string;
  deleted_at: string | null;
}

export function fullName(u: { last_name: string; first_name: string; middle_name?: string | null }): string {
  return [u.last_name, u.first_name, u.middle_name].filter(Boolean).join(' ');
}

export function initialsOf(u: { last_name: string; first_name: string }): string {
  return `${u.first_name.charAt(0)}${u.last_name.charAt(0)}`.toUpperCase();
}
