import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  isExportRunning,
  type EraseUserInput,
  type eraseUserAnswer,
  type PersonalDataExport,
  type personalDataExportStartedAnswer,
} from '@edu/domain/personal-data/personal-data';
import { api } from '../../../lib/api-client';
import { POLL_MS } from './my-export';

export interface ClientPersonalData {
  user_id: number;
  erased_at: string | null;
  is_operator: boolean;
  export: PersonalDataExport | null;
}

const key = (id: number) => ['personal-data', 'client', id] as const;

/** GET /api/manager/users/{id}/personal-data: erased or not, and the newest archive (asked again while it is being prepared). */
export function useClientPersonalData(userId: number) {
  return useQuery(
    queryOptions({
      queryKey: key(userId),
      queryFn: async () => (await api.get<{ data: ClientPersonalData }>(`/api/manager/users/${userId}/personal-data`)).data,
      refetchInterval: (query) => (query.state.data?.export && isExportRunning(query.state.data.export.status) ? POLL_MS : false),
    }),
  );
}

/** POST /api/manager/users/{id}/personal-data/export: the client's archive on their written request. */
export function usePrepareClientExport(userId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<z.output<typeof personalDataExportStartedAnswer>>(`/api/manager/users/${userId}/personal-data/export`),
    onSuccess: () => client.invalidateQueries({ queryKey: key(userId) }),
  });
}

/** POST /api/manager/users/{id}/erase {reason}: the client's personal data erased, money records kept. */
export function useEraseClient(userId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: EraseUserInput) => api.post<z.output<typeof eraseUserAnswer>>(`/api/manager/users/${userId}/erase`, body),
    onSuccess: async () => {
      await client.invalidateQueries({ queryKey: key(userId) });
      // The users list and the card show the placeholder name from now on.
      await client.invalidateQueries({ queryKey: ['manager-users'] });
    },
  });
}
