import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { requestLogsAnswer } from '@edu/domain/logs/log';
import { api } from '../../../lib/api-client';

/** GET /api/telescope/requests: type=request, errorsOnly, page, per_page. */
export function getRequestLogs(query: Record<string, string>, signal?: AbortSignal): Promise<z.output<typeof requestLogsAnswer>> {
  return api.get<z.output<typeof requestLogsAnswer>>('/api/telescope/requests', { query: { type: 'request', ...query }, signal });
}

export const requestLogsQuery = (query: Record<string, string>) =>
  queryOptions({ queryKey: ['logs', 'requests', query], queryFn: ({ signal }) => getRequestLogs(query, signal), placeholderData: keepPreviousData });

export function useRequestLogs(query: Record<string, string>) {
  return useQuery(requestLogsQuery(query));
}
