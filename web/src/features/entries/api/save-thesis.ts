import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { thesisSavedAnswer } from '@edu/domain/entries/entry';
import { api } from '../../../lib/api-client';
import { useEntriesChanged } from './entries-changed';

export interface SaveThesisInput {
  entry_id: number;
  text: string;
}

/** POST /api/entry-thesis: creates or replaces the theses; 422 errors.text on length or once closed. */
export function saveThesis(input: SaveThesisInput): Promise<z.output<typeof thesisSavedAnswer>> {
  return api.post<z.output<typeof thesisSavedAnswer>>('/api/entry-thesis', input);
}

export function useSaveThesis() {
  const changed = useEntriesChanged();
  return useMutation({ mutationFn: saveThesis, onSuccess: changed });
}
