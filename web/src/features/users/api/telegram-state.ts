import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { TelegramState, telegramStateAnswer } from '@edu/domain/telegram/telegram';
import { api } from '../../../lib/api-client';

export const telegramKey = ['telegram'] as const;

/** GET /api/telegram: is Telegram linked for the signed-in user (and does the centre have a bot)? */
export async function getTelegramState(): Promise<TelegramState> {
  return (await api.get<z.output<typeof telegramStateAnswer>>('/api/telegram')).data;
}

/** While a deep link waits to be opened in Telegram, the state is asked again every few seconds. */
export function useTelegramState(opts: { waiting?: boolean } = {}) {
  return useQuery(
    queryOptions({
      queryKey: telegramKey,
      queryFn: getTelegramState,
      refetchInterval: (query) => (opts.waiting && !query.state.data?.linked ? 2000 : false),
    }),
  );
}
