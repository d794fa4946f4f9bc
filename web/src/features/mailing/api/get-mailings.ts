import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { MailingProgress, mailingsAnswer } from '@edu/domain/mailing/mailing';
import { api } from '../../../lib/api-client';

/** GET /api/mail/mailings: the latest mailings with their progress. */
export async function getMailings(): Promise<MailingProgress[]> {
  return (await api.get<z.output<typeof mailingsAnswer>>('/api/mail/mailings')).data;
}

const running = (list: MailingProgress[] | undefined) => (list ?? []).some((m) => m.status !== 'done');

/** Polls every 1.5 s while a mailing is being sent, so the progress moves on screen. */
export function useMailings() {
  return useQuery(
    queryOptions({
      queryKey: ['mailings'],
      queryFn: getMailings,
      refetchInterval: (query) => (running(query.state.data) ? 1500 : false),
    }),
  );
}
