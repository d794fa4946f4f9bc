import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { printLinkAnswer } from '@edu/domain/documents/print-answers';
import { api } from '../../../lib/api-client';
import { downloadPrivateFile } from '../../../lib/private-file';

/**
 * GET /api/service/{id}/journal/print-excel answers {url}; the .xlsx (the service's journal: its live
 * entries with their clients) is then fetched with the session and saved.
 */
export async function exportJournal(service: { id: number; title: string }): Promise<void> {
  const { url } = await api.get<z.output<typeof printLinkAnswer>>(`/api/service/${service.id}/journal/print-excel`);
  const day = new Date().toLocaleDateString('ru-RU').replace(/\./g, '-');
  const title = service.title.replace(/[\\/:*?"<>|]+/g, ' ').trim();
  await downloadPrivateFile(url, `Журнал ${title} ${day}.xlsx`);
}

export function useExportJournal() {
  return useMutation({ mutationFn: exportJournal });
}
