import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Todo } from '@edu/domain/statistics/todo';
import { api } from '../../../lib/api-client';

/** GET /api/manager/todo: what needs a person today, one count per kind of work. */
export function getTodo(signal?: AbortSignal): Promise<Todo> {
  return api.get<Todo>('/api/manager/todo', { signal });
}

export const todoQuery = queryOptions({
  queryKey: ['statistics', 'todo'],
  queryFn: ({ signal }) => getTodo(signal),
  staleTime: 30_000,
  refetchInterval: 120_000,
});

export function useTodo() {
  return useQuery(todoQuery);
}
