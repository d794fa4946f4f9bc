import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UserDocuments } from '@edu/domain/documents/documents';
import { api } from '../../../lib/api-client';

/** GET /api/user/{id}/documents: files by kind and the whole list. */
export function getDocuments(userId: number): Promise<UserDocuments> {
  return api.get<{ data: UserDocuments }>(`/api/user/${userId}/documents`).then((r) => r.data);
}

export const documentsQuery = (userId: number) => queryOptions({ queryKey: ['documents', userId], queryFn: () => getDocuments(userId) });

export function useDocuments(userId: number) {
  return useQuery(documentsQuery(userId));
}
