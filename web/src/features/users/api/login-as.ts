import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import type { leaveLoginAsAnswer, loginAsAnswer } from '@edu/domain/users/manager-user';
import { api } from '../../../lib/api-client';
import { setToken } from '../../../lib/storage';

type SessionAnswer = z.output<typeof leaveLoginAsAnswer>;

/** POST /api/manager/users/{id}/login-as: the operator's session becomes the user's. */
export function loginAs(id: number): Promise<z.output<typeof loginAsAnswer>> {
  return api.post(`/api/manager/users/${id}/login-as`);
}

/** POST /api/login-as/leave: back to the operator's own session. */
export function leaveLoginAs(): Promise<SessionAnswer> {
  return api.post('/api/login-as/leave');
}

/** Swaps the stored token and starts the cabinet afresh (no answer of the other person stays cached). */
function useSwitchSession<V>(call: (v: V) => Promise<SessionAnswer>, to: string) {
  const client = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: call,
    onSuccess: async (answer) => {
      setToken(answer.access_token);
      client.clear();
      await navigate(to, { replace: true });
    },
  });
}

/** mutate(userId) */
export const useLoginAs = () => useSwitchSession((id: number) => loginAs(id), '/user/dashboard');
export const useLeaveLoginAs = () => useSwitchSession(() => leaveLoginAs(), '/manager/users');
