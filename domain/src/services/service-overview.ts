import { z } from 'zod';
import { DATE_RANGE_BACKWARDS, dateRangeProblem, filterText, flagField, idField, ruDateField } from '../common/bounds.ts';
import { pageQuery, sortParam } from '../common/pagination.ts';
import { pageAnswer } from '../common/answers.ts';
import { serviceTypeRefSchema } from './service.ts';

/** The columns «Все услуги» sorts by (`?sort=name` or `-name`). */
export const SERVICE_OVERVIEW_SORTS = ['title', 'begda', 'price', 'entries', 'paid', 'free', 'income'] as const;
export type ServiceOverviewSort = (typeof SERVICE_OVERVIEW_SORTS)[number];

/**
 * GET /api/service/overview (operators, issue 22 «Все услуги»): every service across types and
 * subtypes. q: words of the title or the service number; dict_type_id and dict_subtype_id (the
 * type → subtype drill-down as filters); is_visible: 1 visible, 0 hidden, absent both; date_from,
 * date_to: Moscow days dd.mm.yyyy the service's dates overlap (undated services are left out then);
 * sort: one of SERVICE_OVERVIEW_SORTS. Deleted services are never listed.
 */
export const serviceOverviewQuery = pageQuery
  .extend({
    sort: sortParam(SERVICE_OVERVIEW_SORTS).optional(),
    q: filterText(200).optional(),
    dict_type_id: idField().optional(),
    dict_subtype_id: idField().optional(),
    is_visible: flagField().optional(),
    /** error: services whose last publishing to the site failed. */
    site: z.enum(['error']).optional(),
    date_from: ruDateField().optional(),
    date_to: ruDateField().optional(),
  })
  .refine((v) => !dateRangeProblem(v.date_from, v.date_to), { path: ['date_to'], error: DATE_RANGE_BACKWARDS });
export type ServiceOverviewQuery = z.input<typeof serviceOverviewQuery>;

/**
 * One row of «Все услуги»: the service and its sales. Counts are of live (not deleted) entries;
 * paid entries are those paid or done; income is the sum of their prices (what was charged for
 * them, a package's share for a package entry), in rubles. Seats and free places are null for
 * publication services, which have no seat limit.
 */
export const serviceOverviewRowSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  dict_type_id: z.number().int(),
  dict_subtype_id: z.number().int().nullable(),
  type: serviceTypeRefSchema.pick({ id: true, fdv: true, icon: true, color: true }).nullable(),
  subtype: z.object({ id: z.number().int(), fdv: z.string() }).nullable(),
  /** 1 specific dates, 2 permanent, 3 open dates. */
  date_type: z.number().int(),
  /** 'YYYY-MM-DD HH:mm:ss' in Moscow time, or null. */
  begda: z.string().nullable(),
  endda: z.string().nullable(),
  interval_formatted: z.string().nullable(),
  is_visible: z.boolean(),
  is_done: z.boolean(),
  is_publication: z.boolean(),
  /** The list price (as GET /api/service answers it). */
  price: z.number(),
  seats: z.number().int().nullable(),
  entries: z.number().int(),
  paid: z.number().int(),
  free: z.number().int().nullable(),
  income: z.number(),
});
export type ServiceOverviewRow = z.output<typeof serviceOverviewRowSchema>;
/** GET /api/service/overview: a page of «Все услуги». */
export const serviceOverviewAnswer = pageAnswer(serviceOverviewRowSchema);
