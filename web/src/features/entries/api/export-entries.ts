import { useMutation } from '@tanstack/react-query';
import { downloadPrivateFile } from '../../../lib/private-file';
import type { EntryFilters } from './get-entries';

/** GET /api/entry/excel with the list's filters: the chosen entries as .xlsx with a totals row, fetched with the session. */
export async function exportEntries(filters: EntryFilters): Promise<void> {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    if (value === undefined || value === '' || value === false || key === 'page' || key === 'per_page') continue;
    query.set(key, value === true ? '1' : String(value));
  }
  const day = new Date().toLocaleDateString('ru-RU').replace(/\./g, '-');
  await downloadPrivateFile(`/api/entry/excel?${query}`, `Заявки ${day}.xlsx`);
}

export function useExportEntries() {
  return useMutation({ mutationFn: exportEntries });
}
