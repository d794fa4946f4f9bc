import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { importSummaryAnswer } from '@edu/domain/bank-statements/bank-statement';
import { api } from '../../../lib/api-client';

type Answer = z.output<typeof importSummaryAnswer>;

/** POST /api/manager/bank-statements (multipart: file): imports a 1C statement; answers its summary. */
export function uploadStatement(file: File): Promise<Answer> {
  const form = new FormData();
  form.append('file', file);
  return api.post<Answer>('/api/manager/bank-statements', form);
}

export function useUploadStatement() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: uploadStatement,
    onSuccess: () => client.invalidateQueries({ queryKey: ['bank-statements'] }),
  });
}
