import { useMutation } from '@tanstack/react-query';
import type { Entry } from '@edu/domain/entries/entry';
import { api } from '../../../lib/api-client';
import { useEntriesChanged } from './entries-changed';

export interface CreateEntryInput {
  service_id: number;
  section_id: number | null;
  pay_type: number;
  is_extramural: 0 | 1;
}

/** POST /api/entry: 201 {data: Entry, message: 'Заявка успешно отправлена!'}; free services come back paid. */
export function createEntry(input: CreateEntryInput): Promise<{ data: Entry; message: string }> {
  return api.post<{ data: Entry; message: string }>('/api/entry', input);
}

export function useCreateEntry() {
  const changed = useEntriesChanged();
  return useMutation({ mutationFn: createEntry, onSuccess: changed });
}
