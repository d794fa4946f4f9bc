import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { publicationAnswer } from '@edu/domain/publications/publication';
import { api } from '../../../lib/api-client';
import type { Publication, PublicationPage } from './types';

/**
 * GET /api/publication (spec 03 §7): title, entryNumber, fio, serviceId, status, isPaid,
 * isWithoutRelease, release_id, userId, page, per_page. A user always gets their own.
 */
export type PublicationFilters = Record<string, string | number | undefined>;

export function getPublications(filters: PublicationFilters, signal?: AbortSignal): Promise<PublicationPage> {
  return api.get<PublicationPage>('/api/publication', { query: { ...filters }, signal });
}

/** While a uniqueness check is queued or running, the data is read again every few seconds. */
const CHECK_POLL_MS = 3000;

export const publicationsQuery = (filters: PublicationFilters) =>
  queryOptions({
    queryKey: ['publications', 'list', filters],
    queryFn: ({ signal }) => getPublications(filters, signal),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.data.some((p) => p.uniqueness_state) ? CHECK_POLL_MS : false),
  });

export function usePublications(filters: PublicationFilters) {
  return useQuery(publicationsQuery(filters));
}

/** GET /api/publication/{id}: one publication with its matches. */
export function getPublication(id: number, signal?: AbortSignal): Promise<Publication> {
  return api.get<z.output<typeof publicationAnswer>>(`/api/publication/${id}`, { signal }).then((a) => a.data);
}

export function usePublication(id: number | null) {
  return useQuery({
    queryKey: ['publications', 'detail', id],
    queryFn: ({ signal }) => getPublication(id as number, signal),
    enabled: id !== null,
    refetchInterval: (q) => (q.state.data?.uniqueness_state ? CHECK_POLL_MS : false),
  });
}
