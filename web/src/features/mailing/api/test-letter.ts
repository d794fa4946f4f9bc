import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { letterBody, letterPreviewAnswer, testLetterAnswer } from '@edu/domain/mailing/mailing';
import { api } from '../../../lib/api-client';

export type LetterInput = z.input<typeof letterBody>;

/** POST /api/mail/preview {message, subject, audience, user_id}: the letter as the first (or chosen) recipient gets it. */
export function usePreviewLetter() {
  return useMutation({ mutationFn: async (body: LetterInput) => (await api.post<z.output<typeof letterPreviewAnswer>>('/api/mail/preview', body)).data });
}

/** POST /api/mail/send-test {message, subject, audience, user_id}: that recipient's letter to the operator's own address. */
export function useSendTestLetter() {
  return useMutation({ mutationFn: (body: LetterInput) => api.post<z.output<typeof testLetterAnswer>>('/api/mail/send-test', body) });
}
