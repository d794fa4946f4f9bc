import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { messageAnswer } from '@edu/domain/common/answers';
import type { dictionaryItemSavedAnswer, EditableDictionary } from '@edu/domain/dictionaries/dictionary-saves';
import { api } from '../../../lib/api-client';

/** POST /api/dictionaries/{name} (new) or PUT /api/dictionaries/{name}/{id}. */
export function saveDictionaryItem(
  name: EditableDictionary,
  id: number | null,
  body: Record<string, unknown>,
): Promise<z.output<typeof dictionaryItemSavedAnswer>> {
  return id === null ? api.post(`/api/dictionaries/${name}`, body) : api.put(`/api/dictionaries/${name}/${id}`, body);
}

/** DELETE /api/dictionaries/{name}/{id}: refused while the item is in use. */
export function deleteDictionaryItem(name: EditableDictionary, id: number): Promise<z.output<typeof messageAnswer>> {
  return api.delete(`/api/dictionaries/${name}/${id}`);
}

export function useSaveDictionaryItem(name: EditableDictionary) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: Record<string, unknown> }) => saveDictionaryItem(name, id, body),
    onSuccess: () => client.invalidateQueries({ queryKey: ['dictionaries', name] }),
  });
}

export function useDeleteDictionaryItem(name: EditableDictionary) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => deleteDictionaryItem(name, id),
    onSuccess: () => client.invalidateQueries({ queryKey: ['dictionaries', name] }),
  });
}
