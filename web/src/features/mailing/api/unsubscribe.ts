import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { unsubscribedAnswer } from '@edu/domain/mailing/mailing';
import { api } from '../../../lib/api-client';

/** POST /api/mail/unsubscribe/{token}: the link of a mass letter; no session needed. */
export function unsubscribe(token: string) {
  return api.post<z.output<typeof unsubscribedAnswer>>(`/api/mail/unsubscribe/${encodeURIComponent(token)}`, undefined, { protectedCall: false });
}

export function useUnsubscribe() {
  return useMutation({ mutationFn: unsubscribe });
}
