import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { useEntriesChanged } from './entries-changed';

export interface SaveThesisInput {
  entry_id: number;
  text: string;
}

/** POST /api/entry-thesis: creates or replaces the theses; 422 errors.text on length or once closed. */
export function saveThesis(input: SaveThesisInput): Promise<{ message: string }> {
  return api.post<{ message: string }>('/api/entry-thesis', input);
}

export function useSaveThesis() {
  const changed = useEntriesChanged();
  return useMutation({ mutationFn: saveThesis, onSuccess: changed });
}
