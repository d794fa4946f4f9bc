import { useState } from 'react';
import { Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { DEFAULT_PAGE_SIZE } from '@edu/domain/common/codes';
import { ListPagination } from '../../../components/list-pagination';
import { dateTimePrefix } from '../../../components/date-time-mask-input';
import { errorMessage } from '../../../lib/api-client';
import { useDictionary } from '../../../lib/dictionaries';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useNarrow } from '../../../lib/use-narrow';
import { usePayments, type PaymentFilters } from '../api/get-payments';
import { EmptyList, ListError, ListSkeleton } from '../components/list-states';
import { PaymentCards } from '../components/payment-cards';
import { PaymentsFilters, emptyPaymentFilters, type PaymentFilterValues } from '../components/payments-filters';
import { PaymentsTable } from '../components/payments-table';
import { sumFilter } from '../components/sum-input';

const optionalNumber = (value: string | null) => (value ? Number(value) : undefined);

function toQuery(v: PaymentFilterValues, page: number, perPage: number): PaymentFilters {
  return {
    entry_number: v.entry_number.trim() || undefined,
    fio: v.fio.trim() || undefined,
    serviceType: optionalNumber(v.serviceType),
    serviceTitle: v.serviceTitle.trim() || undefined,
    sum: sumFilter(v.sum),
    payType: optionalNumber(v.payType),
    uuid: v.uuid.trim() || undefined,
    created_at: dateTimePrefix(v.created_at) || undefined,
    page,
    per_page: perPage,
  };
}

/** /manager/payments 'Платежи' (spec 03 §2): every payment for entries, with filters. */
export function PaymentsPage() {
  useDocumentTitle('Платежи');
  const narrow = useNarrow();
  const types = useDictionary('dict_service_types');
  const [values, setValues] = useState<PaymentFilterValues>(emptyPaymentFilters);
  const [debounced] = useDebouncedValue(values, 350);
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState<number>(DEFAULT_PAGE_SIZE);
  const list = usePayments(toQuery(debounced, page, perPage));
  const payments = list.data?.data ?? [];

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="baseline">
        <Title order={2}>Платежи</Title>
        {list.data && (
          <Text size="sm" c="dimmed" data-testid="payments-total">
            Всего: {list.data.meta.total}
          </Text>
        )}
      </Group>

      <PaymentsFilters
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
      ) : payments.length === 0 ? (
        <EmptyList />
      ) : narrow ? (
        <div style={{ opacity: list.isPlaceholderData ? 0.6 : 1 }}>
          <PaymentCards payments={payments} showClient />
        </div>
      ) : (
        <Paper p="xs" radius="md" withBorder style={{ opacity: list.isPlaceholderData ? 0.6 : 1 }}>
          <PaymentsTable payments={payments} showClient />
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
