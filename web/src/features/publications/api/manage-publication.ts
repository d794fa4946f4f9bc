import { useQueryClient } from '@tanstack/react-query';
import { CURRENT_USER_KEY } from '../../../lib/current-user';
import type { z } from 'zod';
import type {
  AddedToReleaseAnswer,
  PublicationActionAnswer,
  publicationDeletedAnswer,
  PublishAcceptedAnswer,
  SavePublicationAnswer,
} from '@edu/domain/publications/publication';
import { api } from '../../../lib/api-client';

/** POST /api/publication (create) or POST /api/publication/{id} with _method=PUT (multipart). */
export function savePublication(id: number | null, form: FormData): Promise<SavePublicationAnswer> {
  if (id === null) return api.post<SavePublicationAnswer>('/api/publication', form);
  form.set('_method', 'PUT');
  return api.post<SavePublicationAnswer>(`/api/publication/${id}`, form);
}

/** `confirm_unpaid`: the operator agreed to approve (or send to the journal) a publication whose entry is unpaid. */
export type PublicationAction =
  | { kind: 'accept'; confirm_unpaid?: boolean }
  | { kind: 'decline'; manager_comment: string }
  | { kind: 'reject'; manager_comment: string; is_silent: boolean }
  | { kind: 'send-to-journal'; confirm_unpaid?: boolean }
  | { kind: 'check-uniqueness' };

export function runAction(id: number, action: PublicationAction): Promise<PublicationActionAnswer> {
  const { kind, ...body } = action;
  return api.post<PublicationActionAnswer>(`/api/publication/${id}/${kind}`, body);
}

export const addAuthor = (id: number, authorId: number) => api.post<PublicationActionAnswer>(`/api/publication/${id}/add-author/${authorId}`);
export const deletePublication = (id: number) => api.delete<z.output<typeof publicationDeletedAnswer>>(`/api/publication/${id}`);
/** «Опубликовать одобренные»: unpaid ones are skipped (the answer's message counts them) unless `include_unpaid`. */
export const publishAccepted = (include_unpaid = false) => api.post<PublishAcceptedAnswer>('/api/publication/publish-accepted', { include_unpaid });
/** Unpaid ones among `ids` go in only with `confirm_unpaid` (422 on that field otherwise). */
export const addToRelease = (ids: number[], release_id: number, confirm_unpaid = false) =>
  api.post<AddedToReleaseAnswer>('/api/publication/add-to-release', { ids, release_id, confirm_unpaid });

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
