import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { fileDeletedAnswer } from '@edu/domain/documents/documents';
import { api } from '../../../lib/api-client';
import { CURRENT_USER_KEY } from '../../../lib/current-user';

/** DELETE /api/file/{id}: a document of the user. */
export function deleteFile({ id }: { id: number; userId: number }): Promise<z.output<typeof fileDeletedAnswer>> {
  return api.delete<z.output<typeof fileDeletedAnswer>>(`/api/file/${id}`);
}

export function useDeleteFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteFile,
    onSuccess: (_answer, { userId }) => {
      void queryClient.invalidateQueries({ queryKey: ['documents', userId] });
      void queryClient.invalidateQueries({ queryKey: ['contract-data', userId] });
      void queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
    },
  });
}
