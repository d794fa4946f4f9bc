import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { contractUploadedAnswer } from '@edu/domain/contracts/contract';
import { api } from '../../../lib/api-client';

/** POST /api/contract/upload?entry_id= (multipart "file"): the signed contract scan. */
export function uploadContractScan({ entryId, file }: { entryId: number; file: File }): Promise<z.output<typeof contractUploadedAnswer>> {
  const form = new FormData();
  form.append('file', file, file.name);
  return api.post<z.output<typeof contractUploadedAnswer>>('/api/contract/upload', form, { query: { entry_id: entryId } });
}

export function useUploadContractScan() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: uploadContractScan, onSuccess: () => queryClient.invalidateQueries({ queryKey: ['contracts'] }) });
}
