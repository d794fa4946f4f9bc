import { keepPreviousData, useInfiniteQuery, useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { entrySavedAnswer, guestCreatedAnswer } from '@edu/domain/entries/entry';
import type { entryHistoryAnswer, guestsAnswer, MemberBody } from '@edu/domain/entries/entry-admin';
import { api } from '../../../lib/api-client';
import { useEntriesChanged } from './entries-changed';

type EntryAnswer = z.output<typeof entrySavedAnswer>;

/** POST /api/entry/{id}/complete (operators, a paid entry). */
export function useCompleteEntry() {
  const changed = useEntriesChanged();
  return useMutation({ mutationFn: (id: number) => api.post<EntryAnswer>(`/api/entry/${id}/complete`), onSuccess: changed });
}

/** POST /api/entry/{id}/restore (operators). */
export function useRestoreEntry() {
  const changed = useEntriesChanged();
  return useMutation({ mutationFn: (id: number) => api.post<EntryAnswer>(`/api/entry/${id}/restore`), onSuccess: changed });
}

/** GET /api/entry/{id}/history: the change log of one entry. */
export function useEntryHistory(id: number | null, page: number) {
  return useQuery({
    queryKey: ['entries', 'history', id, page],
    queryFn: () => api.get<z.output<typeof entryHistoryAnswer>>(`/api/entry/${id}/history`, { query: { page, per_page: 15 } }),
    enabled: id !== null,
    placeholderData: keepPreviousData,
  });
}

/** POST /api/competition-member. */
export function useSaveMember() {
  const changed = useEntriesChanged();
  return useMutation({ mutationFn: (body: MemberBody) => api.post<EntryAnswer>('/api/competition-member', body), onSuccess: changed });
}

/** GET /api/guest: guests not yet in the service, 50 per load. */
export function useGuests(serviceId: number | null, fio: string, isSpb: '' | '0' | '1' = '') {
  return useInfiniteQuery({
    queryKey: ['entries', 'guests', serviceId, fio, isSpb],
    queryFn: ({ pageParam }) =>
      api.get<z.output<typeof guestsAnswer>>('/api/guest', {
        query: { service_id: serviceId, fio: fio.trim() || undefined, is_spb: isSpb || undefined, page: pageParam },
      }),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.meta.current_page < last.meta.last_page ? last.meta.current_page + 1 : undefined),
    enabled: serviceId !== null,
  });
}

/** POST /api/entry/guest {service_id, user_id, section_id}. */
export function useAddGuest() {
  const changed = useEntriesChanged();
  return useMutation({
    mutationFn: (body: { service_id: number; user_id: number; section_id: number | null }) => api.post<EntryAnswer>('/api/entry/guest', body),
    onSuccess: changed,
  });
}

/** POST /api/guest {fio, organization, job_title, service_id, section_id}: a new guest added to the service. */
export function useCreateGuest() {
  const changed = useEntriesChanged();
  return useMutation({
    mutationFn: (body: { fio: string; organization: string; job_title: string; is_spb: number; service_id: number; section_id: number | null }) =>
      api.post<z.output<typeof guestCreatedAnswer>>('/api/guest', body),
    onSuccess: changed,
  });
}
