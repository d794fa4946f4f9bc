import { z } from 'zod';
import { filterText, flagField, idField, idListField } from '../common/bounds.ts';
import { DateType, DEFAULT_MAX_PARTICIPANTS } from '../common/codes.ts';
import { pageQuery } from '../common/pagination.ts';
import type { ProfileBadge } from '../users/current-user.ts';

export const SERVICE_TITLE_MAX = 100;

export interface ServiceSection {
  id: number;
  title: string;
  service_id: number;
  participants_num: number;
}

export interface ServiceTypeRef {
  id: number;
  fdv: string;
  dv: string | null;
  icon: string | null;
  color: string | null;
  points: number;
  is_contract_needed: boolean;
  is_publication: boolean;
  /** The type's default templates (spec 02 §3 "default template ids"; defaults are per service type, decision 024). */
  template_certificate_id: number | null;
  template_page_id: number | null;
}

export interface ServiceSubtypeRef {
  id: number;
  fdv: string;
  points: number;
  is_spb: number | null;
  is_publication: boolean;
  publication_has_file: boolean;
}

/** A service as users and operators see it (spec 01 §3 Service, spec 02 §3 Service). Money in rubles. */
export interface Service {
  id: number;
  title: string;
  description: string | null;
  price: number;
  points: number;
  is_visible: boolean;
  is_done: boolean;
  is_publication: boolean;
  is_thesis_needed: boolean;
  dict_type_id: number;
  dict_subtype_id: number | null;
  type: ServiceTypeRef | null;
  subtype: ServiceSubtypeRef | null;
  /** 1 in-person and remote, 2 in-person, 3 remote. */
  participation_type: number;
  /** 1 specific dates, 2 permanent, 3 open dates. */
  date_type: number;
  date_type_icon: string;
  /** 'YYYY-MM-DD HH:mm:ss' in Moscow time, or null. */
  begda: string | null;
  endda: string | null;
  interval_formatted: string | null;
  max_participants: number;
  sections: ServiceSection[];
  profiles: ProfileBadge[];
  leadings: Array<{ id: number; fio: string }>;
  count_participants: number;
  template_certificate_id: number | null;
  template_program_id: number | null;
  template_participation_id: number | null;
  moodle_id: number | null;
  /** Shown only for types needing a contract. */
  hours: number | null;
  days: number | null;
  joomla_article_template_id: number | null;
  joomla_intro_html: string | null;
  joomla_additional_html: string | null;
  joomla_video_iframe: string | null;
  /** Address of the service's image, or null. */
  image: string | null;
  joomla_article_id: number | null;
  joomla_catid: number | null;
  /** null never sent, 'pending' queued, 'published', 'error' (retried). */
  joomla_status: 'pending' | 'published' | 'error' | null;
  joomla_error: string | null;
  /** The article on the site, for operators, when published and the site is configured. */
  site_url: string | null;
}

export const dateTypeIcons: Record<number, string> = {
  [DateType.specific]: 'IconCalendarEvent',
  [DateType.permanent]: 'IconInfinity',
  [DateType.open]: 'IconCalendarQuestion',
};

/** Seats of a section or of a service without sections: max_participants, 0 meaning 27. */
export function seatLimit(maxParticipants: number): number {
  return maxParticipants > 0 ? maxParticipants : DEFAULT_MAX_PARTICIPANTS;
}

const idList = idListField(100);

/** GET /api/service filters (spec 01 §7, spec 02 §7). past: 1 past, 0 upcoming, absent all. */
export const serviceListQuery = pageQuery.extend({
  dict_type_id: idField().optional(),
  dict_subtype_id: idField().optional(),
  /** Operators: 1 only visible, 0 only hidden, absent all (users always get visible ones). */
  is_visible: flagField().optional(),
  userId: idField().optional(),
  profile: idList.optional(),
  leading: idList.optional(),
  past: flagField().optional(),
  title: filterText(200).optional(),
  isPublication: flagField().optional(),
});
export type ServiceListQuery = z.input<typeof serviceListQuery>;

/** POST /api/service/search {keywords}: answers {data: Service[]} ordered by the nearest date. */
export const serviceSearchBody = z.object({ keywords: filterText(200) });
export const SEARCH_LIMIT = 10;
export const SEARCH_DEBOUNCE_MS = 300;
/** Below this count the search modal says 'Найдено записей: N', otherwise 'Последние N записей:'. */
export const SEARCH_HEADING_THRESHOLD = 6;
