import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { telegramLinkAnswer, telegramSavedAnswer } from '@edu/domain/telegram/telegram';
import { api } from '../../../lib/api-client';
import { telegramKey } from './telegram-state';

/** POST /api/telegram/link: a one-time deep link to the centre's bot. */
export function useTelegramLink() {
  return useMutation({
    mutationFn: async () => (await api.post<z.output<typeof telegramLinkAnswer>>('/api/telegram/link')).data,
  });
}

/** DELETE /api/telegram/link: unlink the chat. */
export function useTelegramUnlink() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete<z.output<typeof telegramSavedAnswer>>('/api/telegram/link'),
    onSuccess: (answer) => client.setQueryData(telegramKey, answer.data),
  });
}
