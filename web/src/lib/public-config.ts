import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { publicConfigAnswer } from '@edu/domain/users/current-user';
import { api } from './api-client';
import { OLD_CABINET_URL } from './config';

export interface PublicConfig {
  old_cabinet_url: string;
}

/** GET /api/public-config: server settings read at run time (OLD_CABINET_URL), not baked into the build. */
export const publicConfigQuery = queryOptions({
  queryKey: ['public-config'],
  queryFn: () => api.get<z.output<typeof publicConfigAnswer>>('/api/public-config', { protectedCall: false }).then((r) => r.data),
  staleTime: Infinity,
});

/** The legacy cabinet's address: the server's setting, the build's default until it has answered. */
export function useOldCabinetUrl(): string {
  return useQuery(publicConfigQuery).data?.old_cabinet_url ?? OLD_CABINET_URL;
}
