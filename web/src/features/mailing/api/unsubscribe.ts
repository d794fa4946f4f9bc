import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST /api/mail/unsubscribe/{token}: the link of a mass letter; no session needed. */
export function unsubscribe(token: string): Promise<{ message: string }> {
  return api.post(`/api/mail/unsubscribe/${encodeURIComponent(token)}`, undefined, { protectedCall: false });
}

export function useUnsubscribe() {
  return useMutation({ mutationFn: unsubscribe });
}
