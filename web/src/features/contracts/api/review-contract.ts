import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { contractReviewedAnswer } from '@edu/domain/contracts/contract';
import { api } from '../../../lib/api-client';

/** POST /api/contract/{id}/accept. */
export function acceptContract({ id }: { id: number }): Promise<z.output<typeof contractReviewedAnswer>> {
  return api.post<z.output<typeof contractReviewedAnswer>>(`/api/contract/${id}/accept`);
}

/** POST /api/contract/{id}/reject {comment}: the comment is optional. */
export function rejectContract({ id, comment }: { id: number; comment: string }): Promise<z.output<typeof contractReviewedAnswer>> {
  return api.post<z.output<typeof contractReviewedAnswer>>(`/api/contract/${id}/reject`, { comment: comment.trim() || null });
}

/** After either action all three lists reload (spec 02 §4), and the entries that carry the contract. */
function useReload() {
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: ['contracts'] }), queryClient.invalidateQueries({ queryKey: ['entries'] })]);
}

export function useAcceptContract() {
  const reload = useReload();
  return useMutation({ mutationFn: acceptContract, onSettled: reload });
}

export function useRejectContract() {
  const reload = useReload();
  return useMutation({ mutationFn: rejectContract, onSettled: reload });
}
