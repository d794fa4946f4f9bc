import { Text } from '@mantine/core';
import { formatRub } from '@edu/domain/common/format';
import { cardTransactionListQuery, providerStatusLabels, type CardTransaction } from '@edu/domain/payments/payment';
import type { ListColumn } from '../../../components/data-list';
import type { FilterField } from '../../../components/filter-fields';
import { ListPage } from '../../../components/list-page';
import { useListParams } from '../../../components/use-list-params';
import { createdAtColumn } from '../../../components/created-at-column';
import { useDictionary } from '../../../lib/dictionaries';
import { useCardTransactions } from '../api/get-card-transactions';
import { TransactionBuyer, TransactionUuid } from '../components/card-transaction-cells';
import { Numbers } from '../components/payment-cells';
import { SumInput } from '../components/sum-input';

const statusOptions = Object.entries(providerStatusLabels).map(([value, { label }]) => ({ value, label }));

/** Card-provider transactions (spec 03 §2), one description for the table and the cards. */
const columns: Array<ListColumn<CardTransaction>> = [
  { key: 'uuid', label: 'Идентификатор платежа', card: 'title', maxWidth: 260, render: (t) => <TransactionUuid transaction={t} /> },
  { key: 'order', label: 'Заказ #', maxWidth: 180, render: (t) => (t.order ? <Numbers numbers={t.order.split(', ')} /> : '—') },
  { key: 'buyer', label: 'Покупатель', maxWidth: 240, render: (t) => <TransactionBuyer transaction={t} /> },
  { key: 'comment', label: 'Услуга/Комментарий', maxWidth: 320, render: (t) => t.comment ?? '—' },
  {
    key: 'sum',
    label: 'Сумма',
    card: 'aside',
    render: (t) => (
      <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
        {formatRub(t.sum)}
      </Text>
    ),
  },
  createdAtColumn('date', 'Дата'),
];

/** /manager/yookassa 'ЮKassa' (spec 03 §2): card-provider transactions. */
export function CardTransactionsPage() {
  const types = useDictionary('dict_service_types');
  const params = useListParams(cardTransactionListQuery);
  const list = useCardTransactions(params.query);
  const filters: FilterField[] = [
    { name: 'status', label: 'Статус', kind: 'select', options: statusOptions },
    { name: 'uuid', label: 'Идентификатор платежа', kind: 'text', placeholder: 'Из ЮKassa' },
    { name: 'entry_number', label: 'Заказ #', kind: 'text', placeholder: 'Номер заявки' },
    { name: 'fio', label: 'ФИО', kind: 'text', placeholder: 'Покупатель' },
    {
      name: 'serviceType',
      label: 'Тип услуги',
      kind: 'select',
      placeholder: 'Все типы',
      options: (types.data ?? []).map((t) => ({ value: String(t.id), label: t.fdv })),
    },
    { name: 'serviceTitle', label: 'Услуга', kind: 'text', placeholder: 'Название' },
    { name: 'sum', label: 'Сумма', kind: 'custom', render: (value, onChange) => <SumInput value={value} onChange={onChange} /> },
    { name: 'isWithoutUser', label: 'Без пользователя', kind: 'checkbox' },
  ];
  return (
    <ListPage title="ЮKassa" filters={filters} params={params} list={list} columns={columns} testId="transactions" itemTestId="transaction" minWidth={960} />
  );
}
