import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { SaveServiceBody, serviceDeletedAnswer, serviceFormOptionsAnswer, serviceSavedAnswer } from '@edu/domain/services/service-form';
import { api } from '../../../lib/api-client';

type Answer = z.output<typeof serviceSavedAnswer>;

/** GET /api/service/form-options: templates by type, leading persons, whether the site is configured. */
export function useServiceFormOptions(enabled = true) {
  return useQuery({
    queryKey: ['services', 'form-options'],
    queryFn: async () => (await api.get<z.output<typeof serviceFormOptionsAnswer>>('/api/service/form-options')).data,
    staleTime: 60_000,
    enabled,
  });
}

function useServicesChanged() {
  const queryClient = useQueryClient();
  return () => void queryClient.invalidateQueries({ queryKey: ['services'] });
}

/** POST /api/service or PUT /api/service/{id}. */
export function useSaveService() {
  const changed = useServicesChanged();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: SaveServiceBody }) =>
      id ? api.put<Answer>(`/api/service/${id}`, body) : api.post<Answer>('/api/service', body),
    onSuccess: changed,
  });
}

/** POST /api/service/{id}/upload-image (multipart "file"). */
export function useUploadServiceImage() {
  const changed = useServicesChanged();
  return useMutation({
    mutationFn: ({ id, file }: { id: number; file: File }) => {
      const form = new FormData();
      form.append('file', file);
      return api.post<Answer>(`/api/service/${id}/upload-image`, form);
    },
    onSuccess: changed,
  });
}

/** POST /api/service/save-to-joomla/{id}: publishes now; a failure answers 'Ошибка сохранения в Joomla! {message}...'. */
export function usePublishService() {
  const changed = useServicesChanged();
  return useMutation({ mutationFn: (id: number) => api.post<Answer>(`/api/service/save-to-joomla/${id}`), onSettled: changed });
}

/** DELETE /api/service/{id}. */
export function useDeleteService() {
  const changed = useServicesChanged();
  return useMutation({ mutationFn: (id: number) => api.delete<z.output<typeof serviceDeletedAnswer>>(`/api/service/${id}`), onSuccess: changed });
}
