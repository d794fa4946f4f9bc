import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ManagedUser, ManagerUserInput } from '@edu/domain/users/manager-user';
import { api } from '../../../lib/api-client';

/** POST /api/manager/users (new) or PUT /api/manager/users/{id}. */
export function saveManagedUser(id: number | null, body: ManagerUserInput): Promise<{ data: ManagedUser; message: string }> {
  return id === null ? api.post('/api/manager/users', body) : api.put(`/api/manager/users/${id}`, body);
}

export function useSaveManagedUser() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: ManagerUserInput }) => saveManagedUser(id, body),
    onSuccess: () => client.invalidateQueries({ queryKey: ['manager-users'] }),
  });
}
