import { z } from 'zod';
import { DATE_RANGE_BACKWARDS, dateRangeProblem, filterText, flagField, idField, ruDateField } from '../common/bounds.ts';
import { pageQuery, sortParam } from '../common/pagination.ts';
import type { ServiceTypeRef } from './service.ts';

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
export interface ServiceOverviewRow {
  id: number;
  title: string;
  dict_type_id: number;
  dict_subtype_id: number | null;
  type: Pick<ServiceTypeRef, 'id' | 'fdv' | 'icon' | 'color'> | null;
  subtype: { id: number; fdv: string } | null;
  /** 1 specific dates, 2 permanent, 3 open dates. */
  date_type: number;
  /** 'YYYY-MM-DD HH:mm:ss' in Moscow time, or null. */
  begda: string | null;
  endda: string | null;
  interval_formatted: string | null;
  is_visible: boolean;
  is_done: boolean;
  is_publication: boolean;
  /** The list price (as GET /api/service answers it). */
  price: number;
  seats: number | null;
  entries: number;
  paid: number;
  free: number | null;
  income: number;
}
