import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { missingTemplatesAnswer, templateAnswer, templateDeletedAnswer, templateSavedAnswer, templatesAnswer } from '@edu/domain/templates/template';
import { api } from '../../../lib/api-client';
import { API_URL } from '../../../lib/config';
import { getToken } from '../../../lib/storage';

export interface TemplateFilters {
  dict_type_id: number;
  page: number;
  per_page: number;
}

/** GET /api/template?dict_type_id=: templates of one type, newest first. */
export const templatesQuery = (filters: TemplateFilters) =>
  queryOptions({
    queryKey: ['templates', 'list', filters],
    queryFn: ({ signal }) => api.get<z.output<typeof templatesAnswer>>('/api/template', { query: { ...filters }, signal }),
    placeholderData: keepPreviousData,
  });

export function useTemplates(filters: TemplateFilters) {
  return useQuery(templatesQuery(filters));
}

/** GET /api/template/missing: services that lack a certificate or contract template, templates the install lacks, empty requisites. */
export function useMissingTemplates() {
  return useQuery({
    queryKey: ['templates', 'missing'],
    queryFn: ({ signal }) => api.get<z.output<typeof missingTemplatesAnswer>>('/api/template/missing', { signal }).then((r) => r.data),
  });
}

/** GET /api/template/{id}: one template with the macros it uses. */
export function useTemplate(id: number | null) {
  return useQuery({
    queryKey: ['templates', 'one', id],
    queryFn: () => api.get<z.output<typeof templateAnswer>>(`/api/template/${id}`).then((r) => r.data),
    enabled: id !== null,
  });
}

export interface TemplateForm {
  id: number | null;
  title: string;
  dict_type_id: number;
  content: string;
  file: File | null;
}

/** POST /api/template, or POST /api/template/{id} with _method=PUT: multipart with the file and every field. */
export function useSaveTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (f: TemplateForm) => {
      const body = new FormData();
      if (f.id) body.append('_method', 'PUT');
      body.append('title', f.title);
      body.append('dict_type_id', String(f.dict_type_id));
      body.append('content', f.content);
      if (f.file) body.append('file', f.file);
      return api.post<z.output<typeof templateSavedAnswer>>(f.id ? `/api/template/${f.id}` : '/api/template', body);
    },
    onSuccess: () => client.invalidateQueries({ queryKey: ['templates'] }),
  });
}

/** DELETE /api/template/{id}. */
export function useDeleteTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<z.output<typeof templateDeletedAnswer>>(`/api/template/${id}`),
    onSuccess: () => client.invalidateQueries({ queryKey: ['templates'] }),
  });
}

/** POST /api/template/{id}/set-as-default/{serviceTypeId}: 'Шаблон успешно установлен по умолчанию!'. */
export function useSetDefaultTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, serviceTypeId }: { id: number; serviceTypeId: number }) =>
      api.post<z.output<typeof templateSavedAnswer>>(`/api/template/${id}/set-as-default/${serviceTypeId}`),
    onSuccess: () => client.invalidateQueries({ queryKey: ['templates'] }),
  });
}

/** Downloads the uploaded .docx (the route needs the session, so it is fetched, not linked). */
export async function downloadTemplateFile(id: number, name: string): Promise<void> {
  const token = getToken();
  const res = await fetch(`${API_URL}/api/template/${id}/file`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });
  if (!res.ok) throw new Error('download failed');
  const url = URL.createObjectURL(await res.blob());
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
