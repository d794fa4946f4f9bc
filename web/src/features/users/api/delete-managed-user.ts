import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ManagedUser } from '@edu/domain/users/manager-user';
import { api } from '../../../lib/api-client';

/** DELETE /api/manager/users/{id} (soft) or POST /api/manager/users/{id}/restore. */
export function setUserDeleted(id: number, deleted: boolean): Promise<{ message: string; data?: ManagedUser }> {
  return deleted ? api.delete(`/api/manager/users/${id}`) : api.post(`/api/manager/users/${id}/restore`);
}

export function useSetUserDeleted() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, deleted }: { id: number; deleted: boolean }) => setUserDeleted(id, deleted),
    onSuccess: () => client.invalidateQueries({ queryKey: ['manager-users'] }),
  });
}
