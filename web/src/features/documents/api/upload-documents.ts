import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { DocumentKind, userDocumentsUploadedAnswer } from '@edu/domain/documents/documents';
import { api } from '../../../lib/api-client';
import { CURRENT_USER_KEY } from '../../../lib/current-user';

export type PendingFiles = Partial<Record<DocumentKind, File[]>>;

/** POST /api/user/{id}/upload-documents: multipart, one field per kind, several files each. */
export function uploadDocuments({ userId, files }: { userId: number; files: PendingFiles }): Promise<z.output<typeof userDocumentsUploadedAnswer>> {
  const form = new FormData();
  for (const [kind, list] of Object.entries(files)) for (const f of list ?? []) form.append(kind, f, f.name);
  return api.post<z.output<typeof userDocumentsUploadedAnswer>>(`/api/user/${userId}/upload-documents`, form);
}

export function useUploadDocuments() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadDocuments,
    onSuccess: (answer, { userId }) => {
      queryClient.setQueryData(['documents', userId], answer.data);
      void queryClient.invalidateQueries({ queryKey: ['contract-data', userId] });
      void queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
    },
  });
}
