import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { IssuedDocument } from '@edu/domain/documents/verification';
import { api } from '../../../lib/api-client';

const key = (entryId: number) => ['entries', 'issued-documents', entryId];

/** GET /api/entry/{id}/issued-documents (operators): the entry's printed documents and their verification codes. */
export function useIssuedDocuments(entryId: number) {
  return useQuery({ queryKey: key(entryId), queryFn: () => api.get<{ data: IssuedDocument[] }>(`/api/entry/${entryId}/issued-documents`) });
}

/** POST /api/issued-document/{id}/revoke {reason} (operators). */
export function useRevokeIssuedDocument(entryId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (o: { id: number; reason: string }) =>
      api.post<{ data: IssuedDocument; message: string }>(`/api/issued-document/${o.id}/revoke`, { reason: o.reason }),
    onSuccess: () => client.invalidateQueries({ queryKey: key(entryId) }),
  });
}
