import { useCallback } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { CURRENT_USER_KEY } from '../../../lib/current-user';

/**
 * After any entry change: the lists, the seat counts of services and the current user's counters
 * (sidebar badge, dashboard widgets) are fetched again.
 */
export function useEntriesChanged() {
  const queryClient = useQueryClient();
  return useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: ['entries'] });
    void queryClient.invalidateQueries({ queryKey: ['services'] });
    void queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
  }, [queryClient]);
}
