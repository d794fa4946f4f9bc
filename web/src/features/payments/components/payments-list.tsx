import { useState } from 'react';
import { Stack } from '@mantine/core';
import { DEFAULT_PAGE_SIZE } from '@edu/domain/common/codes';
import { DataList } from '../../../components/data-list';
import { ListPagination } from '../../../components/list-pagination';
import { errorMessage } from '../../../lib/api-client';
import { useNarrow } from '../../../lib/use-narrow';
import { usePayments } from '../api/get-payments';
import { paymentColumns } from './payment-columns';

export interface PaymentsListProps {
  /**
   * Whose payments: for an operator, this user's; without it an operator sees every payment. A user
   * always gets their own (the server decides).
   */
  userId?: number;
  /** Tighter rows, fewer skeleton rows and no page-size choice (inside a tab or a modal). */
  compact?: boolean;
}

const columns = paymentColumns(false);

/**
 * One user's payments (the 'Платежи' tab of the entries pages): Заявка, Услуга, Тип оплаты, Сумма,
 * Дата; a table above 1199 px, cards at or below.
 */
export function PaymentsList({ userId, compact = false }: PaymentsListProps) {
  const narrow = useNarrow();
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState<number>(DEFAULT_PAGE_SIZE);
  const list = usePayments({ user_id: userId, page, per_page: perPage });

  return (
    <Stack gap={compact ? 'sm' : 'md'} data-testid="payments-list">
      <DataList
        rows={list.data?.data}
        columns={columns}
        rowKey={(p) => p.id}
        narrow={narrow}
        loading={list.isPending}
        error={list.isError ? errorMessage(list.error) : null}
        stale={list.isPlaceholderData}
        testId="payments"
        itemTestId="payment"
        compact={compact}
        fixed
        skeletonRows={compact ? 3 : 5}
      />
      <ListPagination
        meta={list.data?.meta}
        onPage={setPage}
        onPerPage={
          compact
            ? undefined
            : (n) => {
                setPerPage(n);
                setPage(1);
              }
        }
      />
    </Stack>
  );
}
