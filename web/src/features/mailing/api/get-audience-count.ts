import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { audienceCountAnswer, MailingAudience } from '@edu/domain/mailing/mailing';
import { api } from '../../../lib/api-client';

/** POST /api/mail/audience-count {audience}: how many get the letter now, and whom in words. */
export async function getAudienceCount(audience: MailingAudience): Promise<z.output<typeof audienceCountAnswer>['data']> {
  return (await api.post<z.output<typeof audienceCountAnswer>>('/api/mail/audience-count', { audience })).data;
}

/** Counted again when the audience changes; the old figure stays while the new one comes. */
export function useAudienceCount(audience: MailingAudience) {
  return useQuery(queryOptions({ queryKey: ['mailing-audience', audience], queryFn: () => getAudienceCount(audience), placeholderData: keepPreviousData }));
}
