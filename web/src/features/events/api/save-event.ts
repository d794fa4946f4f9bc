import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { eventSaveBody, eventSavedAnswer } from '@edu/domain/events/event';
import { api } from '../../../lib/api-client';
import { eventsQuery } from './get-events';

/** PUT /api/dictionaries/dict_events/{id}: template (dv, content), notification template, mailing switch. */
export function saveEvent({ id, ...body }: z.input<typeof eventSaveBody> & { id: number }) {
  return api.put<z.output<typeof eventSavedAnswer>>(`/api/dictionaries/dict_events/${id}`, body);
}

export function useSaveEvent() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: saveEvent,
    onSuccess: (answer) => {
      client.setQueryData(eventsQuery().queryKey, (list) => list?.map((e) => (e.id === answer.data.id ? answer.data : e)));
    },
  });
}
