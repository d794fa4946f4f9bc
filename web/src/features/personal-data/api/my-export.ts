import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import {
  isExportRunning,
  type PersonalDataExport,
  type personalDataExportAnswer,
  type personalDataExportStartedAnswer,
} from '@edu/domain/personal-data/personal-data';
import { api } from '../../../lib/api-client';

const key = ['personal-data', 'mine'] as const;

/** How often a running archive's state is asked again. */
export const POLL_MS = 1500;

/** GET /api/personal-data/export: the signed-in person's newest archive, or null. */
export async function getMyExport(): Promise<PersonalDataExport | null> {
  return (await api.get<z.output<typeof personalDataExportAnswer>>('/api/personal-data/export')).data;
}

/** The newest archive; asked again every POLL_MS while it is queued or being prepared. */
export function useMyExport() {
  return useQuery(
    queryOptions({
      queryKey: key,
      queryFn: getMyExport,
      refetchInterval: (query) => (query.state.data && isExportRunning(query.state.data.status) ? POLL_MS : false),
    }),
  );
}

/** POST /api/personal-data/export: a new archive (429 while one is being prepared). */
export function useRequestMyExport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<z.output<typeof personalDataExportStartedAnswer>>('/api/personal-data/export'),
    onSuccess: (answer) => client.setQueryData(key, answer.data),
  });
}
