import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { ManagedUser, managedUserAnswer } from '@edu/domain/users/manager-user';
import { api } from '../../../lib/api-client';

/** GET /api/manager/users/{id}: the user card (entry count, paid count, amount due). */
export async function getManagedUser(id: number): Promise<ManagedUser> {
  return (await api.get<z.output<typeof managedUserAnswer>>(`/api/manager/users/${id}`)).data;
}

export const managedUserQuery = (id: number) => queryOptions({ queryKey: ['manager-users', 'one', id], queryFn: () => getManagedUser(id) });

export function useManagedUser(id: number | null) {
  return useQuery({ ...managedUserQuery(id ?? 0), enabled: id !== null });
}
