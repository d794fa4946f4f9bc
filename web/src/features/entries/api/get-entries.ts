import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { entryListAnswer } from '@edu/domain/entries/entry';
import { api } from '../../../lib/api-client';

export interface EntryFilters {
  number?: string;
  /** Service type id. */
  type?: number;
  /** Part of the event title. */
  service?: string;
  status?: number;
  /** Only removed entries. */
  deleted?: boolean;
  /** Operators: the client's name, the creation day (dd.mm.yyyy), one client. */
  fio?: string;
  date?: string;
  created_by?: number;
  /** Operators: the entries of one service (the service entries modal). */
  service_id?: number;
  /** Operators: unpaid entries of dated services that have already begun (the dashboard's to-do). */
  overdue?: boolean;
  /** Operators: `?sort=` of the list (and of its export), e.g. 'price' or '-price'. */
  sort?: string;
  page: number;
  per_page: number;
}

/** A page of entries; meta.theses_awaited: some entry that needs theses has none (the banner). */
export type EntryList = z.output<typeof entryListAnswer>;

/** GET /api/entry: a user's own entries; for operators everyone's unless created_by is set. */
export function getEntries(filters: EntryFilters): Promise<EntryList> {
  return api.get<EntryList>('/api/entry', {
    query: {
      ...filters,
      number: filters.number?.trim(),
      service: filters.service?.trim(),
      fio: filters.fio?.trim() || undefined,
      date: filters.date || undefined,
      deleted: filters.deleted ? 1 : undefined,
      overdue: filters.overdue ? 1 : undefined,
    },
  });
}

export const entriesQuery = (filters: EntryFilters) =>
  queryOptions({ queryKey: ['entries', 'list', filters], queryFn: () => getEntries(filters), placeholderData: keepPreviousData });

export function useEntries(filters: EntryFilters) {
  return useQuery(entriesQuery(filters));
}
