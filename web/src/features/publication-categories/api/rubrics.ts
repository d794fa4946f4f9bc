import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

const NAME = 'dict_publication_categories';

/** POST /api/dictionaries/dict_publication_categories (new) or PUT …/{id} (spec 03 §7: saved under the dictionary URL by name). */
export function useSaveRubric() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: Record<string, unknown> }): Promise<{ message: string }> =>
      id === null ? api.post(`/api/dictionaries/${NAME}`, body) : api.put(`/api/dictionaries/${NAME}/${id}`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: ['dictionaries', NAME] }),
  });
}

/** DELETE /api/dictionaries/dict_publication_categories/{id}: refused while publications name the rubric. */
export function useDeleteRubric() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number): Promise<{ message: string }> => api.delete(`/api/dictionaries/${NAME}/${id}`),
    onSuccess: () => client.invalidateQueries({ queryKey: ['dictionaries', NAME] }),
  });
}
