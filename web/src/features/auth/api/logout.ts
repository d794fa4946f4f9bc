import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** POST /logout: revokes the token on the server. */
export function logout(): Promise<void> {
  return api.post<void>('/logout', undefined, { protectedCall: false });
}

export function useLogout() {
  return useMutation({ mutationFn: logout });
}
