import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { MailingProgress, sendAllBody } from '@edu/domain/mailing/mailing';
import { api } from '../../../lib/api-client';

export type SendAllInput = z.input<typeof sendAllBody>;

/** POST /api/mail/send-all {message, subject, audience} (spec 03 §7): answers once the mailing is queued. */
export function sendAll(body: SendAllInput): Promise<{ data: MailingProgress; message: string }> {
  return api.post('/api/mail/send-all', body);
}

export function useSendAll() {
  const client = useQueryClient();
  return useMutation({ mutationFn: sendAll, onSuccess: () => client.invalidateQueries({ queryKey: ['mailings'] }) });
}
