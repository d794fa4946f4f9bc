import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { Entry, entryAnswer } from '@edu/domain/entries/entry';
import { api } from '../../../lib/api-client';

/** GET /api/entry/{id}: the paid publication entry whose article is being added (its service, number, package). */
export function getArticleEntry(id: number, signal?: AbortSignal): Promise<Entry> {
  return api.get<z.output<typeof entryAnswer>>(`/api/entry/${id}`, { signal }).then((a) => a.data);
}

export function useArticleEntry(id: number | null) {
  return useQuery({ queryKey: ['entries', 'detail', id], queryFn: ({ signal }) => getArticleEntry(id as number, signal), enabled: id !== null });
}
