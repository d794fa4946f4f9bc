import { queryOptions, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { UserDocuments, userDocumentsAnswer } from '@edu/domain/documents/documents';
import { api } from '../../../lib/api-client';

/** GET /api/user/{id}/documents: files by kind and the whole list. */
export function getDocuments(userId: number): Promise<UserDocuments> {
  return api.get<z.output<typeof userDocumentsAnswer>>(`/api/user/${userId}/documents`).then((r) => r.data);
}

export const documentsQuery = (userId: number) => queryOptions({ queryKey: ['documents', userId], queryFn: () => getDocuments(userId) });

export function useDocuments(userId: number) {
  return useQuery(documentsQuery(userId));
}
