import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { packageEnrolledAnswer } from '@edu/domain/service-packages/package-enrollment';
import { api } from '../../../lib/api-client';
import { CURRENT_USER_KEY } from '../../../lib/current-user';

export interface EnrollInput {
  packageId: number;
  /** Service id to the chosen section id (null for services without sections). */
  services: Record<string, number | null>;
}

export type EnrollAnswer = z.output<typeof packageEnrolledAnswer>;

/** POST /api/service-package/{id}/enroll: every entry of the package or none. */
export function enrollPackage({ packageId, services }: EnrollInput): Promise<EnrollAnswer> {
  return api.post<EnrollAnswer>(`/api/service-package/${packageId}/enroll`, { services });
}

export function useEnrollPackage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: enrollPackage,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['entries'] });
      void queryClient.invalidateQueries({ queryKey: ['services'] });
      void queryClient.invalidateQueries({ queryKey: ['service-packages'] });
      void queryClient.invalidateQueries({ queryKey: CURRENT_USER_KEY });
    },
  });
}
