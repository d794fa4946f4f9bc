import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MailingProgress } from '@edu/domain/mailing/mailing';
import { api } from '../../../lib/api-client';

/** POST /api/mail/send-all {message} (spec 03 §7): answers once the mailing is queued. */
export function sendAll(message: string): Promise<{ data: MailingProgress; message: string }> {
  return api.post('/api/mail/send-all', { message });
}

export function useSendAll() {
  const client = useQueryClient();
  return useMutation({ mutationFn: sendAll, onSuccess: () => client.invalidateQueries({ queryKey: ['mailings'] }) });
}
