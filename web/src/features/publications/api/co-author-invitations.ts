import { useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { coAuthorInvitationsAnswer, invitationAnsweredAnswer } from '@edu/domain/publications/co-authors';
import { api } from '../../../lib/api-client';
import { useInvalidatePublications } from './manage-publication';

/** GET /api/publication/invitations: co-author invitations waiting for my answer. */
export function useCoAuthorInvitations() {
  return useQuery({
    queryKey: ['publications', 'invitations'],
    queryFn: ({ signal }) => api.get<z.output<typeof coAuthorInvitationsAnswer>>('/api/publication/invitations', { signal }).then((a) => a.data),
  });
}

/** POST /api/publication/{id}/accept-invitation or …/decline-invitation. */
export function useAnswerInvitation() {
  const invalidate = useInvalidatePublications();
  return useMutation({
    mutationFn: ({ id, accept }: { id: number; accept: boolean }) =>
      api.post<z.output<typeof invitationAnsweredAnswer>>(`/api/publication/${id}/${accept ? 'accept' : 'decline'}-invitation`),
    onSuccess: invalidate,
  });
}
