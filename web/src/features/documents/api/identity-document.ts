import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { IdentityDocument, IdentityDocumentInput, identityDocumentsAnswer, identityDocumentSavedAnswer } from '@edu/domain/documents/documents';
import { api } from '../../../lib/api-client';

/** GET /api/identity-document?user_id=: the first item is the passport. */
export function getIdentityDocument(userId: number): Promise<IdentityDocument | null> {
  return api.get<z.output<typeof identityDocumentsAnswer>>('/api/identity-document', { query: { user_id: userId } }).then((r) => r.data[0] ?? null);
}

export const identityDocumentQuery = (userId: number) => queryOptions({ queryKey: ['identity-document', userId], queryFn: () => getIdentityDocument(userId) });

export function useIdentityDocument(userId: number) {
  return useQuery(identityDocumentQuery(userId));
}

/** POST /api/identity-document: number, date, issued_by; locked for the client once saved. */
export function saveIdentityDocument(body: IdentityDocumentInput & { user_id: number }): Promise<z.output<typeof identityDocumentSavedAnswer>> {
  return api.post<z.output<typeof identityDocumentSavedAnswer>>('/api/identity-document', body);
}

export function useSaveIdentityDocument() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveIdentityDocument,
    onSuccess: (answer, { user_id }) => {
      queryClient.setQueryData(['identity-document', user_id], answer.data);
      void queryClient.invalidateQueries({ queryKey: ['contract-data', user_id] });
    },
  });
}
