import { useEffect } from 'react';
import { keepPreviousData, queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { PublicationCheckState, publicationAnswer, publicationCheckStateAnswer } from '@edu/domain/publications/publication';
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

/** GET /api/publication/{id}/uniqueness-state: the check's state without the text. */
export function getCheckState(id: number, signal?: AbortSignal): Promise<PublicationCheckState> {
  return api.get<z.output<typeof publicationCheckStateAnswer>>(`/api/publication/${id}/uniqueness-state`, { signal }).then((a) => a.data);
}

const detailKey = (id: number | null) => ['publications', 'detail', id];

/**
 * One publication. While its check waits or runs, only the check's state is read every few seconds
 * (a long text is not sent again each time); the whole publication is read again once the check is done.
 */
export function usePublication(id: number | null) {
  const queryClient = useQueryClient();
  const detail = useQuery({
    queryKey: detailKey(id),
    queryFn: ({ signal }) => getPublication(id as number, signal),
    enabled: id !== null,
  });
  const waiting = detail.data?.uniqueness_state ?? null;
  const polled = useQuery({
    // A new reading of the publication starts a new poll (never the state of an earlier check).
    queryKey: ['publications', 'uniqueness-state', id, detail.dataUpdatedAt],
    queryFn: ({ signal }) => getCheckState(id as number, signal),
    enabled: id !== null && waiting !== null,
    refetchInterval: CHECK_POLL_MS,
    gcTime: 0,
  });
  const state = polled.data;
  useEffect(() => {
    if (!state || state.id !== id) return;
    const shown = queryClient.getQueryData<Publication>(detailKey(id));
    if (!shown?.uniqueness_state || shown.uniqueness_state === state.uniqueness_state) return;
    // Queued → running: the badge alone changes; done: the percent and the matches are read.
    if (state.uniqueness_state) queryClient.setQueryData<Publication>(detailKey(id), { ...shown, uniqueness_state: state.uniqueness_state });
    else void queryClient.invalidateQueries({ queryKey: detailKey(id) });
  }, [state, id, queryClient]);
  return detail;
}
