import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { contractExportLinkAnswer } from '@edu/domain/contracts/contract';
import { api } from '../../../lib/api-client';
import { downloadPrivateFile } from '../../../lib/private-file';

/** GET /api/contract/print-excel answers {url}; the .xlsx is then fetched with the session and saved. */
export async function exportContracts(filters: { fio?: string }): Promise<void> {
  const { url } = await api.get<z.output<typeof contractExportLinkAnswer>>('/api/contract/print-excel', { query: { fio: filters.fio?.trim() || undefined } });
  const day = new Date().toLocaleDateString('ru-RU').replace(/\./g, '-');
  await downloadPrivateFile(url, `Договоры ${day}.xlsx`);
}

export function useExportContracts() {
  return useMutation({ mutationFn: exportContracts });
}
