import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { entryDeletedAnswer } from '@edu/domain/entries/entry';
import { api } from '../../../lib/api-client';
import { useEntriesChanged } from './entries-changed';

/** DELETE /api/entry/{id}: {message: 'Успешно удалено'}; 422 once paid. */
export function deleteEntry(id: number): Promise<z.output<typeof entryDeletedAnswer>> {
  return api.delete<z.output<typeof entryDeletedAnswer>>(`/api/entry/${id}`);
}

export function useDeleteEntry() {
  const changed = useEntriesChanged();
  return useMutation({ mutationFn: deleteEntry, onSuccess: changed });
}
