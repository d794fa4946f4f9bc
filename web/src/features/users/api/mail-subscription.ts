import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { MailSubscription, mailSubscriptionAnswer, mailSubscriptionSavedAnswer } from '@edu/domain/mailing/mailing';
import { api } from '../../../lib/api-client';

const key = ['mail-subscription'] as const;

/** GET /api/mail/subscription: does the signed-in user get the mass mailing? */
export async function getMailSubscription(): Promise<MailSubscription> {
  return (await api.get<z.output<typeof mailSubscriptionAnswer>>('/api/mail/subscription')).data;
}

export function useMailSubscription() {
  return useQuery(queryOptions({ queryKey: key, queryFn: getMailSubscription }));
}

/** PUT /api/mail/subscription {subscribed}. */
export function useSetMailSubscription() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (subscribed: boolean) => api.put<z.output<typeof mailSubscriptionSavedAnswer>>('/api/mail/subscription', { subscribed }),
    onSuccess: (answer) => client.setQueryData(key, answer.data),
  });
}
