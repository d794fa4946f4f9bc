import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { EventRow } from '@edu/domain/events/event';
import type { dictionaryAnswer } from '@edu/domain/dictionaries/dictionaries';
import { api } from '../../../lib/api-client';

/** GET /api/dictionaries/dict_events: every event with its template fields (operators see them all). */
export async function getEvents(): Promise<EventRow[]> {
  const answer = await api.get<z.output<typeof dictionaryAnswer>>('/api/dictionaries/dict_events');
  return answer.data.data as EventRow[];
}

export const eventsQuery = () => queryOptions({ queryKey: ['dictionaries', 'dict_events'], queryFn: getEvents });

export function useEvents() {
  return useQuery(eventsQuery());
}
