import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { mailingQueuedAnswer, sendAllBody } from '@edu/domain/mailing/mailing';
import { api } from '../../../lib/api-client';

export type SendAllInput = z.input<typeof sendAllBody>;

/** POST /api/mail/send-all {message, subject, audience} (spec 03 §7): answers once the mailing is queued. */
export function sendAll(body: SendAllInput) {
  return api.post<z.output<typeof mailingQueuedAnswer>>('/api/mail/send-all', body);
}

export function useSendAll() {
  const client = useQueryClient();
  return useMutation({ mutationFn: sendAll, onSuccess: () => client.invalidateQueries({ queryKey: ['mailings'] }) });
}
