import { useQueryClient } from '@tanstack/react-query';
import { CURRENT_USER_KEY } from '../../../lib/current-user';
import { api } from '../../../lib/api-client';
import type { Publication } from './types';

type Answer = { data?: Publication; message?: string; info?: string | null } | null;

/** POST /api/publication (create) or POST /api/publication/{id} with _method=PUT (multipart). */
export function savePublication(id: number | null, form: FormData): Promise<Answer> {
  if (id === null) return api.post<Answer>('/api/publication', form);
  form.set('_method', 'PUT');
  return api.post<Answer>(`/api/publication/${id}`, form);
}

export type PublicationAction =
  | { kind: 'accept' }
  | { kind: 'decline'; manager_comment: string }
  | { kind: 'reject'; manager_comment: string; is_silent: boolean }
  | { kind: 'send-to-journal' }
  | { kind: 'check-uniqueness' };

export function runAction(id: number, action: PublicationAction): Promise<Answer> {
  const { kind, ...body } = action;
  return api.post<Answer>(`/api/publication/${id}/${kind}`, body);
}

export const addAuthor = (id: number, authorId: number) => api.post<Answer>(`/api/publication/${id}/add-author/${authorId}`);
export const deletePublication = (id: number) => api.delete<null>(`/api/publication/${id}`);
export const publishAccepted = () => api.post<Answer>('/api/publication/publish-accepted');
export const addToRelease = (ids: number[], release_id: number) => api.post<Answer>('/api/publication/add-to-release', { ids, release_id });

/** Every change refreshes the lists, the opened publication and the sidebar badge. */
export function useInvalidatePublications() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: ['publications'] });
    void queryClient.invalidateQueries({ queryKey: ['statistics', 'publication-pending'] });
    void queryClient.invalidateQueries({ queryKey: ['entries'] });
    // What the user owes (badge, left_sum) follows the publication's entry (decision 025).
    void queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
  };
}
