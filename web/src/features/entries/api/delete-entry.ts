import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { useEntriesChanged } from './entries-changed';

/** DELETE /api/entry/{id}: {message: 'Успешно удалено'}; 422 once paid. */
export function deleteEntry(id: number): Promise<{ message: string }> {
  return api.delete<{ message: string }>(`/api/entry/${id}`);
}

export function useDeleteEntry() {
  const changed = useEntriesChanged();
  return useMutation({ mutationFn: deleteEntry, onSuccess: changed });
}
