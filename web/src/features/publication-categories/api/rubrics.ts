import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { rubricBody, rubricDeletedAnswer, rubricSavedAnswer } from '@edu/domain/publication-categories/publication-category';
import { api } from '../../../lib/api-client';

const NAME = 'dict_publication_categories';

/** POST /api/dictionaries/dict_publication_categories (new) or PUT …/{id} (spec 03 §7: saved under the dictionary URL by name). */
export function useSaveRubric() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: z.input<typeof rubricBody> }) =>
      id === null
        ? api.post<z.output<typeof rubricSavedAnswer>>(`/api/dictionaries/${NAME}`, body)
        : api.put<z.output<typeof rubricSavedAnswer>>(`/api/dictionaries/${NAME}/${id}`, body),
    onSuccess: () => client.invalidateQueries({ queryKey: ['dictionaries', NAME] }),
  });
}

/** DELETE /api/dictionaries/dict_publication_categories/{id}: refused while publications name the rubric. */
export function useDeleteRubric() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<z.output<typeof rubricDeletedAnswer>>(`/api/dictionaries/${NAME}/${id}`),
    onSuccess: () => client.invalidateQueries({ queryKey: ['dictionaries', NAME] }),
  });
}
