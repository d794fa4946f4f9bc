import { useQuery } from '@tanstack/react-query';
import type { VerificationAnswer } from '@edu/domain/documents/verification';
import { api } from '../../../lib/api-client';

/** GET /api/verify/{code}: anyone checks a printed document by its code (no session). */
export function verifyDocument(code: string, signal?: AbortSignal): Promise<VerificationAnswer> {
  return api.get<VerificationAnswer>(`/api/verify/${encodeURIComponent(code)}`, { signal, protectedCall: false });
}

export function useVerifyDocument(code: string) {
  return useQuery({ queryKey: ['verify', code], queryFn: ({ signal }) => verifyDocument(code, signal), retry: false, staleTime: 60_000, enabled: code !== '' });
}
