import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { entrySavedAnswer } from '@edu/domain/entries/entry';
import { api } from '../../../lib/api-client';
import { useEntriesChanged } from './entries-changed';

export interface UpdateEntryInput {
  id: number;
  section_id?: number | null;
  pay_type?: number;
  is_extramural?: 0 | 1;
  /** Operators only. */
  price?: number;
  certificate_number?: string | null;
}

/** PUT /api/entry/{id}: section, pay type and participation, while the entry is unpaid. */
export function updateEntry({ id, ...patch }: UpdateEntryInput): Promise<z.output<typeof entrySavedAnswer>> {
  return api.put<z.output<typeof entrySavedAnswer>>(`/api/entry/${id}`, patch);
}

export function useUpdateEntry() {
  const changed = useEntriesChanged();
  return useMutation({ mutationFn: updateEntry, onSuccess: changed });
}
