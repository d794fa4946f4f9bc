import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { ContractItem } from '@edu/domain/contracts/contract';
import { api } from '../../../lib/api-client';

/** POST /api/contract/upload?entry_id= (multipart "file"): the signed contract scan. */
export function uploadContractScan({ entryId, file }: { entryId: number; file: File }): Promise<{ data: ContractItem; message: string }> {
  const form = new FormData();
  form.append('file', file, file.name);
  return api.post<{ data: ContractItem; message: string }>('/api/contract/upload', form, { query: { entry_id: entryId } });
}

export function useUploadContractScan() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: uploadContractScan, onSuccess: () => queryClient.invalidateQueries({ queryKey: ['contracts'] }) });
}
