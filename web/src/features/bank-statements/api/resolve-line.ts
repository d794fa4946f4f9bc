import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { lineActionAnswer } from '@edu/domain/bank-statements/bank-statement';
import { api } from '../../../lib/api-client';

type Answer = z.output<typeof lineActionAnswer>;

/** POST /api/manager/bank-statement-lines/{id}/assign {entry_ids}: the payment pays these entries by bank transfer. */
export function assignLine(id: number, entryIds: number[]): Promise<Answer> {
  return api.post<Answer>(`/api/manager/bank-statement-lines/${id}/assign`, { entry_ids: entryIds });
}

/** POST /api/manager/bank-statement-lines/{id}/ignore {reason}. */
export function ignoreLine(id: number, reason: string): Promise<Answer> {
  return api.post<Answer>(`/api/manager/bank-statement-lines/${id}/ignore`, { reason });
}

export function useAssignLine() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, entryIds }: { id: number; entryIds: number[] }) => assignLine(id, entryIds),
    onSuccess: () => client.invalidateQueries({ queryKey: ['bank-statements'] }),
  });
}

export function useIgnoreLine() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, reason }: { id: number; reason: string }) => ignoreLine(id, reason),
    onSuccess: () => client.invalidateQueries({ queryKey: ['bank-statements'] }),
  });
}
