import { useState } from 'react';
import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { DEFAULT_PAGE_SIZE } from '@edu/domain/common/codes';
import { ListPagination } from '../../../components/list-pagination';
import { errorMessage } from '../../../lib/api-client';
import { useDictionary } from '../../../lib/dictionaries';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useNarrow } from '../../../lib/use-narrow';
import { useCardTransactions, type CardTransactionFilters, type ProviderStatus } from '../api/get-card-transactions';
import { CardTransactionCards } from '../components/card-transaction-cards';
import { CardTransactionsFilters, emptyCardTransactionFilters, type CardTransactionFilterValues } from '../components/card-transactions-filters';
import { CardTransactionsTable } from '../components/card-transactions-table';
import { EmptyList, ListError, ListSkeleton } from '../components/list-states';
import { sumFilter } from '../components/sum-input';

function toQuery(v: CardTransactionFilterValues, page: number, perPage: number): CardTransactionFilters {
  return {
    status: (v.status as ProviderStatus | null) ?? undefined,
    uuid: v.uuid.trim() || undefined,
    entry_number: v.entry_number.trim() || undefined,
    fio: v.fio.trim() || undefined,
    isWithoutUser: v.isWithoutUser || undefined,
    serviceType: v.serviceType ? Number(v.serviceType) : undefined,
    serviceTitle: v.serviceTitle.trim() || undefined,
    sum: sumFilter(v.sum),
    page,
    per_page: perPage,
  };
}

/** /manager/yookassa 'ЮKassa' (spec 03 §2): card-provider transactions. */
export function CardTransactionsPage() {
  useDocumentTitle('ЮKassa');
  const narrow = useNarrow();
  const types = useDictionary('dict_service_types');
  const [values, setValues] = useState<CardTransactionFilterValues>(emptyCardTransactionFilters);
  const [debounced] = useDebouncedValue(values, 350);
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState<number>(DEFAULT_PAGE_SIZE);
  const list = useCardTransactions(toQuery(debounced, page, perPage));
  const transactions = list.data?.data ?? [];

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="baseline">
        <Title order={2}>ЮKassa</Title>
        {list.data && (
          <Text size="sm" c="dimmed" data-testid="transactions-total">
            Всего: {list.data.meta.total}
          </Text>
        )}
      </Group>

      <CardTransactionsFilters
        value={values}
        onChange={(v) => {
          setValues(v);
          setPage(1);
        }}
        types={types.data ?? []}
        narrow={narrow}
      />

      {list.isPending ? (
        <ListSkeleton narrow={narrow} />
      ) : list.isError && !list.data ? (
        <ListError message={errorMessage(list.error)} />
      ) : transactions.length === 0 ? (
        <EmptyList />
      ) : narrow ? (
        <div style={{ opacity: list.isPlaceholderData ? 0.6 : 1 }}>
          <CardTransactionCards transactions={transactions} />
        </div>
      ) : (
        <Paper p="xs" radius="md" withBorder style={{ opacity: list.isPlaceholderData ? 0.6 : 1 }}>
          <CardTransactionsTable transactions={transactions} />
        </Paper>
      )}

      <ListPagination
        meta={list.data?.meta}
        onPage={setPage}
        onPerPage={(n) => {
          setPerPage(n);
          setPage(1);
        }}
      />
    </Stack>
  );
}
