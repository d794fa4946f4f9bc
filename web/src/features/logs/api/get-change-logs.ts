import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { changeLogsAnswer } from '@edu/domain/logs/log';
import { api } from '../../../lib/api-client';

/** GET /api/log: type, entity_id, page, per_page (domain changeLogListQuery). */
export function getChangeLogs(query: Record<string, string>, signal?: AbortSignal): Promise<z.output<typeof changeLogsAnswer>> {
  return api.get<z.output<typeof changeLogsAnswer>>('/api/log', { query, signal });
}

export const changeLogsQuery = (query: Record<string, string>) =>
  queryOptions({ queryKey: ['logs', 'changes', query], queryFn: ({ signal }) => getChangeLogs(query, signal), placeholderData: keepPreviousData });

export function useChangeLogs(query: Record<string, string>) {
  return useQuery(changeLogsQuery(query));
}
