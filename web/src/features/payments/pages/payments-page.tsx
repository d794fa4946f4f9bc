import { useState } from 'react';
import { Button, Group, Text } from '@mantine/core';
import { IconFileSpreadsheet } from '@tabler/icons-react';
import { dateRangeProblem } from '@edu/domain/common/bounds';
import { payTypeLabels } from '@edu/domain/common/codes';
import { formatRub } from '@edu/domain/common/format';
import { paymentListQuery, PaymentMessages, type Payment } from '@edu/domain/payments/payment';
import type { FilterField } from '../../../components/filter-fields';
import { RuDateFilter } from '../../../components/ru-date-filter';
import { errorMessage } from '../../../lib/api-client';
import { notifyError } from '../../../lib/notify';
import { ListPage } from '../../../components/list-page';
import { useListParams } from '../../../components/use-list-params';
import { useDictionary } from '../../../lib/dictionaries';
import { usePayments } from '../api/get-payments';
import { useExportPayments } from '../api/export-payments';
import { paymentColumns } from '../components/payment-columns';
import { RefundModal } from '../components/refund-modal';
import { SumInput } from '../components/sum-input';

const payTypeOptions = Object.entries(payTypeLabels).map(([value, label]) => ({ value, label }));
const stateOptions = [
  { value: 'double', label: PaymentMessages.stateDouble },
  { value: 'refunded', label: PaymentMessages.stateRefunded },
  { value: 'attention', label: PaymentMessages.stateAttention },
];

/**
 * /manager/payments 'Платежи' (spec 03 §2): every payment for entries, with filters kept in the URL,
 * a date range typed dd.mm.yyyy, the count and sum of what is chosen, and its export to Excel.
 */
export function PaymentsPage() {
  const types = useDictionary('dict_service_types');
  const params = useListParams(paymentListQuery);
  const list = usePayments(params.query);
  const exporting = useExportPayments();
  const [refunding, setRefunding] = useState<Payment | null>(null);
  const columns = paymentColumns(true, setRefunding, true);
  const totals = list.data?.totals;

  const filters: FilterField[] = [
    { name: 'entry_number', label: 'Заявка', kind: 'text', placeholder: 'Номер заявки' },
    { name: 'fio', label: 'Клиент', kind: 'text', placeholder: 'ФИО' },
    {
      name: 'serviceType',
      label: 'Тип услуги',
      kind: 'select',
      placeholder: 'Все типы',
      options: (types.data ?? []).map((t) => ({ value: String(t.id), label: t.fdv })),
    },
    { name: 'serviceTitle', label: 'Услуга', kind: 'text', placeholder: 'Название' },
    { name: 'sum', label: 'Сумма', kind: 'custom', render: (value, onChange) => <SumInput value={value} onChange={onChange} /> },
    { name: 'payType', label: 'Тип оплаты', kind: 'select', options: payTypeOptions },
    { name: 'uuid', label: 'Идентификатор платежа', kind: 'text', placeholder: 'Из ЮKassa' },
    { name: 'state', label: PaymentMessages.filterState, kind: 'select', placeholder: 'Все', options: stateOptions },
    { name: 'date_from', label: 'С даты', kind: 'custom', render: (value, onChange) => <RuDateFilter label="С даты" value={value} onChange={onChange} /> },
    {
      name: 'date_to',
      label: 'По дату',
      kind: 'custom',
      render: (value, onChange) => <RuDateFilter label="По дату" value={value} onChange={onChange} error={dateRangeProblem(params.values.date_from, value)} />,
    },
  ];

  return (
    <ListPage
      title="Платежи"
      filters={filters}
      params={params}
      list={list}
      columns={columns}
      fixed
      testId="payments"
      itemTestId="payment"
      minWidth={900}
      defaultSort="-created_at"
      actions={
        <Button
          variant="light"
          leftSection={<IconFileSpreadsheet size={16} />}
          loading={exporting.isPending}
          onClick={() => exporting.mutate(params.query, { onError: (e) => notifyError(errorMessage(e)) })}
        >
          Скачать Excel
        </Button>
      }
      above={
        totals && (
          <Group gap="lg" data-testid="payments-totals">
            <Text size="sm">
              Платежей: <b>{totals.count.toLocaleString('ru-RU')}</b>
            </Text>
            <Text size="sm">
              На сумму: <b>{formatRub(totals.sum)}</b>
            </Text>
            {totals.refunded > 0 && (
              <>
                <Text size="sm">
                  Возвращено: <b>{formatRub(totals.refunded)}</b>
                </Text>
                <Text size="sm" data-testid="payments-net">
                  Доход: <b>{formatRub(totals.net)}</b>
                </Text>
              </>
            )}
          </Group>
        )
      }
    >
      <RefundModal payment={refunding} onClose={() => setRefunding(null)} />
    </ListPage>
  );
}
