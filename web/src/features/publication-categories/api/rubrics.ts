import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { JoomlaOption } from '@edu/domain/services/service-form';
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

/** POST /api/joomla/categories {joomla_system: 'journal'}: the journal site's categories (publications go there, decision 026); fails (422) when it is off. */
export function useSiteCategories(enabled: boolean) {
  return useQuery({
    queryKey: ['joomla', 'categories', 'journal'],
    queryFn: () => api.post<{ data: JoomlaOption[] }>('/api/joomla/categories', { joomla_system: 'journal' }).then((a) => a.data),
    enabled,
    retry: false,
    staleTime: 5 * 60_000,
  });
}
