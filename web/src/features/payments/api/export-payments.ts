import { useMutation } from '@tanstack/react-query';
import { downloadPrivateFile } from '../../../lib/private-file';
import type { PaymentFilters } from './get-payments';

/** GET /api/payment/excel with the list's filters: the chosen payments as .xlsx with a totals row, fetched with the session. */
export async function exportPayments(filters: PaymentFilters): Promise<void> {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(filters))
    if (value !== undefined && value !== '' && key !== 'page' && key !== 'per_page') query.set(key, String(value));
  const day = new Date().toLocaleDateString('ru-RU').replace(/\./g, '-');
  await downloadPrivateFile(`/api/payment/excel?${query}`, `Платежи ${day}.xlsx`);
}

export function useExportPayments() {
  return useMutation({ mutationFn: exportPayments });
}
