import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { createEntryBody, entrySavedAnswer } from '@edu/domain/entries/entry';
import { api } from '../../../lib/api-client';
import { useEntriesChanged } from './entries-changed';

/**
 * The body as the server reads it (z.output: the domain's z.input types the coerced fields as unknown).
 * The price is the service's; the client sends none.
 */
export type CreateEntryInput = Omit<z.output<typeof createEntryBody>, 'price'>;

/** POST /api/entry: 201 {data: Entry, message: 'Заявка успешно отправлена!'}; free services come back paid. */
export function createEntry(input: CreateEntryInput): Promise<z.output<typeof entrySavedAnswer>> {
  return api.post<z.output<typeof entrySavedAnswer>>('/api/entry', input);
}

export function useCreateEntry() {
  const changed = useEntriesChanged();
  return useMutation({ mutationFn: createEntry, onSuccess: changed });
}
