import type { z } from 'zod';
import type { authorOptionSchema, authorOptionsAnswer } from '@edu/domain/publications/publication';
import type { userLookupAnswer } from '@edu/domain/users/manager-user';
import { api, isApiError } from '../../../lib/api-client';

export type AuthorOption = z.output<typeof authorOptionSchema>;

/**
 * Users found by full name, page 1 (spec 03 §5; the search fires only for non-empty text):
 * GET /api/publication/authors for anyone writing a publication, else the operators' lookup.
 */
export async function searchAuthors(fio: string): Promise<AuthorOption[]> {
  try {
    const answer = await api.get<z.output<typeof authorOptionsAnswer>>('/api/publication/authors', { query: { fio, page: 1 } });
    return answer.data.map((u) => ({ id: u.id, fio: u.fio }));
  } catch (error) {
    if (!isApiError(error) || error.status !== 404) throw error;
    const answer = await api.post<z.output<typeof userLookupAnswer>>('/api/user/get-by-fio', { fio });
    return answer.data.map((u) => ({ id: u.id, fio: u.fio }));
  }
}
