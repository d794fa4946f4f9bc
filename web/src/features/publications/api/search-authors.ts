import { api, isApiError } from '../../../lib/api-client';

export interface AuthorOption {
  id: number;
  fio: string;
}

/**
 * Users found by full name, page 1 (spec 03 §5; the search fires only for non-empty text):
 * GET /api/publication/authors for anyone writing a publication, else the operators' lookup.
 */
export async function searchAuthors(fio: string): Promise<AuthorOption[]> {
  try {
    const answer = await api.get<{ data: AuthorOption[] }>('/api/publication/authors', { query: { fio, page: 1 } });
    return answer.data.map((u) => ({ id: u.id, fio: u.fio }));
  } catch (error) {
    if (!isApiError(error) || error.status !== 404) throw error;
    const answer = await api.post<{ data: AuthorOption[] }>('/api/user/get-by-fio', { fio });
    return answer.data.map((u) => ({ id: u.id, fio: u.fio }));
  }
}
