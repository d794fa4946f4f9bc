import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { clearToken, forgetPath } from '../lib/storage';

interface Navigator {
  navigate: (to: string, opts: { replace: boolean }) => unknown;
}

/** Ends the local session: forget the token, leave for /login, then drop every cached answer. */
export function endSession(navigator: Navigator, client: QueryClient, opts: { forgetReturnPath?: boolean } = {}): void {
  clearToken();
  if (opts.forgetReturnPath) forgetPath();
  void Promise.resolve(navigator.navigate('/login', { replace: true })).then(() => {
    setTimeout(() => client.clear(), 0);
  });
}

export function useEndSession() {
  const navigate = useNavigate();
  const client = useQueryClient();
  return useCallback((opts: { forgetReturnPath?: boolean } = {}) => endSession({ navigate: (to, o) => navigate(to, o) }, client, opts), [navigate, client]);
}
