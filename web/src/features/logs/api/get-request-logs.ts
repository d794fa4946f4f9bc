import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { Paginated } from '@edu/domain/common/pagination';
import type { RequestLogRow } from '@edu/domain/logs/log';
import { api } from '../../../lib/api-client';

/** GET /api/telescope/requests: type=request, errorsOnly, page, per_page. */
export function getRequestLogs(query: Record<string, string>, signal?: AbortSignal): Promise<Paginated<RequestLogRow>> {
  return api.get<Paginated<RequestLogRow>>('/api/telescope/requests', { query: { type: 'request', ...query }, signal });
}

export const requestLogsQuery = (query: Record<string, string>) =>
  queryOptions({ queryKey: ['logs', 'requests', query], queryFn: ({ signal }) => getRequestLogs(query, signal), placeholderData: keepPreviousData });

export function useRequestLogs(query: Record<string, string>) {
  return useQuery(requestLogsQuery(query));
}
