import { z } from 'zod';
import { filterText, flagField, idField, idListField } from '../common/bounds.ts';
import { DateType, DEFAULT_MAX_PARTICIPANTS } from '../common/codes.ts';
import { pageQuery } from '../common/pagination.ts';
import { dataAnswer, listAnswer, pageAnswer } from '../common/answers.ts';
import type { ProfileBadge } from '../users/current-user.ts';

export const SERVICE_TITLE_MAX = 100;

const int = () => z.number().int();

export const serviceSectionSchema = z.object({ id: int(), title: z.string(), service_id: int(), participants_num: int() });
export type ServiceSection = z.output<typeof serviceSectionSchema>;

export const serviceTypeRefSchema = z.object({
  id: int(),
  fdv: z.string(),
  dv: z.string().nullable(),
  icon: z.string().nullable(),
  color: z.string().nullable(),
  points: int(),
  is_contract_needed: z.boolean(),
  is_publication: z.boolean(),
  /** The type's default templates (spec 02 §3 "default template ids"; defaults are per service type, decision 024). */
  template_certificate_id: int().nullable(),
  template_page_id: int().nullable(),
});
export type ServiceTypeRef = z.output<typeof serviceTypeRefSchema>;

export const serviceSubtypeRefSchema = z.object({
  id: int(),
  fdv: z.string(),
  points: int(),
  is_spb: int().nullable(),
  is_publication: z.boolean(),
  publication_has_file: z.boolean(),
});
export type ServiceSubtypeRef = z.output<typeof serviceSubtypeRefSchema>;

/** A profile badge as a service carries it (the users' ProfileBadge). */
const serviceProfileSchema = z.object({ id: int(), fdv: z.string(), color: z.string().nullable() }) satisfies z.ZodType<ProfileBadge>;

/** A service as users and operators see it (spec 01 §3 Service, spec 02 §3 Service). Money in rubles. */
export const serviceSchema = z.object({
  id: int(),
  title: z.string(),
  description: z.string().nullable(),
  price: z.number(),
  points: int(),
  is_visible: z.boolean(),
  is_done: z.boolean(),
  is_publication: z.boolean(),
  is_thesis_needed: z.boolean(),
  dict_type_id: int(),
  dict_subtype_id: int().nullable(),
  type: serviceTypeRefSchema.nullable(),
  subtype: serviceSubtypeRefSchema.nullable(),
  /** 1 in-person and remote, 2 in-person, 3 remote. */
  participation_type: int(),
  /** 1 specific dates, 2 permanent, 3 open dates. */
  date_type: int(),
  date_type_icon: z.string(),
  /** 'YYYY-MM-DD HH:mm:ss' in Moscow time, or null. */
  begda: z.string().nullable(),
  endda: z.string().nullable(),
  interval_formatted: z.string().nullable(),
  max_participants: int(),
  sections: z.array(serviceSectionSchema),
  profiles: z.array(serviceProfileSchema),
  leadings: z.array(z.object({ id: int(), fio: z.string() })),
  count_participants: int(),
  template_certificate_id: int().nullable(),
  template_program_id: int().nullable(),
  template_participation_id: int().nullable(),
  moodle_id: int().nullable(),
  /** Shown only for types needing a contract. */
  hours: z.number().nullable(),
  days: z.number().nullable(),
  joomla_article_template_id: int().nullable(),
  joomla_intro_html: z.string().nullable(),
  joomla_additional_html: z.string().nullable(),
  joomla_video_iframe: z.string().nullable(),
  /** Address of the service's image, or null. */
  image: z.string().nullable(),
  joomla_article_id: int().nullable(),
  joomla_catid: int().nullable(),
  /** null never sent, 'pending' queued, 'published', 'error' (retried). */
  joomla_status: z.enum(['pending', 'published', 'error']).nullable(),
  joomla_error: z.string().nullable(),
  /** The article on the site, for operators, when published and the site is configured. */
  site_url: z.string().nullable(),
});
export type Service = z.output<typeof serviceSchema>;

/** GET /api/service: a page of services. */
export const servicesAnswer = pageAnswer(serviceSchema);
/** GET /api/service/{id}. */
export const serviceAnswer = dataAnswer(serviceSchema);
/** POST /api/service/search: at most SEARCH_LIMIT services. */
export const serviceSearchAnswer = listAnswer(serviceSchema);
/** GET /api/service/facets: the highest points per type id, and the leadings of visible services. */
export const serviceFacetsAnswer = dataAnswer(
  z.object({ type_points: z.record(z.string(), int()), leadings: z.array(z.object({ id: int(), fio: z.string() })) }),
);

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
