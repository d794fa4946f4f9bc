import { useState } from 'react';
import { Paper, Stack } from '@mantine/core';
import { DEFAULT_PAGE_SIZE } from '@edu/domain/common/codes';
import { ListPagination } from '../../../components/list-pagination';
import { errorMessage } from '../../../lib/api-client';
import { useNarrow } from '../../../lib/use-narrow';
import { usePayments } from '../api/get-payments';
import { EmptyList, ListError, ListSkeleton } from './list-states';
import { PaymentCards } from './payment-cards';
import { PaymentsTable } from './payments-table';

export interface PaymentsListProps {
  /**
   * Whose payments: for an operator, this user's; without it an operator sees every payment. A user
   * always gets their own (the server decides).
   */
  userId?: number;
  /** Tighter rows, fewer skeleton rows and no page-size choice (inside a tab or a modal). */
  compact?: boolean;
}

/**
 * One user's payments (the 'Платежи' tab of the entries pages): Заявка, Услуга, Тип оплаты, Сумма,
 * Дата; a table above 1199 px, cards at or below.
 */
export function PaymentsList({ userId, compact = false }: PaymentsListProps) {
  const narrow = useNarrow();
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState<number>(DEFAULT_PAGE_SIZE);
  const list = usePayments({ user_id: userId, page, per_page: perPage });
  const payments = list.data?.data ?? [];

  return (
    <Stack gap={compact ? 'sm' : 'md'} data-testid="payments-list">
      {list.isPending ? (
        <ListSkeleton narrow={narrow} rows={compact ? 3 : 5} />
      ) : list.isError && !list.data ? (
        <ListError message={errorMessage(list.error)} />
      ) : payments.length === 0 ? (
        <EmptyList />
      ) : narrow ? (
        <div style={{ opacity: list.isPlaceholderData ? 0.6 : 1 }}>
          <PaymentCards payments={payments} />
        </div>
      ) : (
        <Paper p={compact ? 0 : 'xs'} radius="md" withBorder style={{ opacity: list.isPlaceholderData ? 0.6 : 1 }}>
          <PaymentsTable payments={payments} compact={compact} />
        </Paper>
      )}
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
