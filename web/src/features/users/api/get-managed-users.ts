import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { managedUsersAnswer } from '@edu/domain/users/manager-user';
import { api } from '../../../lib/api-client';

/** The query of GET /api/manager/users as kept in the URL (domain userListQuery). */
export type ManagedUsersQuery = Record<string, string>;

export function getManagedUsers(query: ManagedUsersQuery, signal?: AbortSignal): Promise<z.output<typeof managedUsersAnswer>> {
  return api.get<z.output<typeof managedUsersAnswer>>('/api/manager/users', { query, signal });
}

export const managedUsersQuery = (query: ManagedUsersQuery) =>
  queryOptions({
    queryKey: ['manager-users', 'list', query],
    queryFn: ({ signal }) => getManagedUsers(query, signal),
    placeholderData: keepPreviousData,
  });

export function useManagedUsers(query: ManagedUsersQuery) {
  return useQuery(managedUsersQuery(query));
}
