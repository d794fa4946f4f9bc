import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { NameForm, nameFormSavedAnswer, nameFormsAnswer } from '@edu/domain/macros/macros';
import { api } from '../../../lib/api-client';

export type { NameForm };

/** GET /api/macros/name-forms?fio=: clients by name with their dative form. */
export function useNameForms(fio: string) {
  return useQuery({
    queryKey: ['name-forms', fio],
    queryFn: ({ signal }) => api.get<z.output<typeof nameFormsAnswer>>('/api/macros/name-forms', { query: { fio }, signal }).then((r) => r.data),
    enabled: fio.trim().length >= 2,
  });
}

/** PUT /api/user/{id}/name-forms {fio_dative}; empty returns to the computed form. */
export function useSaveNameForm() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, fio_dative }: { id: number; fio_dative: string }) =>
      api.put<z.output<typeof nameFormSavedAnswer>>(`/api/user/${id}/name-forms`, { fio_dative }),
    onSuccess: () => client.invalidateQueries({ queryKey: ['name-forms'] }),
  });
}
