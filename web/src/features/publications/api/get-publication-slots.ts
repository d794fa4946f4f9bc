import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { PublicationSlot, publicationSlotsAnswer } from '@edu/domain/publications/publication';
import { api } from '../../../lib/api-client';

/**
 * GET /api/publication/slots: the client's entries of publication services still without their
 * article (a package's publication first). Operators name the client (`userId`).
 */
export function getPublicationSlots(userId: number | null, signal?: AbortSignal): Promise<PublicationSlot[]> {
  return api.get<z.output<typeof publicationSlotsAnswer>>('/api/publication/slots', { query: userId ? { user_id: userId } : {}, signal }).then((a) => a.data);
}

export function usePublicationSlots(userId: number | null, enabled = true) {
  return useQuery({ queryKey: ['publications', 'slots', userId], queryFn: ({ signal }) => getPublicationSlots(userId, signal), enabled });
}
