import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { telegramSavedAnswer } from '@edu/domain/telegram/telegram';
import { api } from '../../../lib/api-client';
import { telegramKey } from './telegram-state';

/** PUT /api/telegram/summary {daily_summary}: an operator's daily to-do summary in Telegram. */
export function useSetTelegramSummary() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (daily_summary: boolean) => api.put<z.output<typeof telegramSavedAnswer>>('/api/telegram/summary', { daily_summary }),
    onSuccess: (answer) => client.setQueryData(telegramKey, answer.data),
  });
}
