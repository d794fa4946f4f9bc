import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { mailingAnswer, MailingProgress } from '@edu/domain/mailing/mailing';
import { api } from '../../../lib/api-client';

/** GET /api/mail/mailings/{id}: one mailing with the addresses that failed for good. */
export async function getMailing(id: number): Promise<MailingProgress> {
  return (await api.get<z.output<typeof mailingAnswer>>(`/api/mail/mailings/${id}`)).data;
}

export function useMailing(id: number, enabled: boolean, running: boolean) {
  return useQuery(queryOptions({ queryKey: ['mailings', id], queryFn: () => getMailing(id), enabled, refetchInterval: running ? 3000 : false }));
}
