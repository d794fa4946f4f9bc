import { useState } from 'react';
import { BoundMessages } from '@edu/domain/common/bounds';
import { payTypeLabels } from '@edu/domain/common/codes';
import { paymentListQuery, PaymentMessages, possibleDateTimePrefix, type Payment } from '@edu/domain/payments/payment';
import { DateTimeMaskInput, dateTimePrefix } from '../../../components/date-time-mask-input';
import type { FilterField } from '../../../components/filter-fields';
import { ListPage } from '../../../components/list-page';
import { useListParams } from '../../../components/use-list-params';
import { useDictionary } from '../../../lib/dictionaries';
import { usePayments } from '../api/get-payments';
import { paymentColumns } from '../components/payment-columns';
import { RefundModal } from '../components/refund-modal';
import { SumInput } from '../components/sum-input';

const payTypeOptions = Object.entries(payTypeLabels).map(([value, label]) => ({ value, label }));
const stateOptions = [
  { value: 'double', label: PaymentMessages.stateDouble },
  { value: 'refunded', label: PaymentMessages.stateRefunded },
];

/**
 * The date filter: an impossible moment (2024-02-31, 25 o'clock) is said under the field and not
 * sent; the list keeps its last real filter until the date is corrected.
 */
function CreatedAtFilter({ value, onChange }: { value: string; onChange: (value: string) => void }) {
  const [typed, setTyped] = useState(value);
  const [sent, setSent] = useState(value);
  if (value !== sent) {
    setSent(value);
    setTyped(value);
  }
  const possible = (v: string) => possibleDateTimePrefix(dateTimePrefix(v));
  return (
    <DateTimeMaskInput
      label="Дата"
      value={typed}
      error={typed && !possible(typed) ? BoundMessages.date : null}
      onChange={(v) => {
        setTyped(v);
        if (!possible(v)) return;
        setSent(v);
        onChange(v);
      }}
    />
  );
}

/** /manager/payments 'Платежи' (spec 03 §2): every payment for entries, with filters kept in the URL. */
export function PaymentsPage() {
  const types = useDictionary('dict_service_types');
  const params = useListParams(paymentListQuery);
  const list = usePayments(params.query);
  const [refunding, setRefunding] = useState<Payment | null>(null);
  const columns = paymentColumns(true, setRefunding);

  const filters: FilterField[] = [
    { name: 'entry_number', label: 'Заявка', kind: 'text', placeholder: 'Номер заявки' },
    { name: 'fio', label: 'Клиент', kind: 'text', placeholder: 'ФИО' },
    { name: 'serviceType', label: 'Тип услуги', kind: 'select', placeholder: 'Все типы', options: (types.data ?? []).map((t) => ({ value: String(t.id), label: t.fdv })) },
    { name: 'serviceTitle', label: 'Услуга', kind: 'text', placeholder: 'Название' },
    { name: 'sum', label: 'Сумма', kind: 'custom', render: (value, onChange) => <SumInput value={value} onChange={onChange} /> },
    { name: 'payType', label: 'Тип оплаты', kind: 'select', options: payTypeOptions },
    { name: 'uuid', label: 'Идентификатор платежа', kind: 'text', placeholder: 'Из ЮKassa' },
    { name: 'state', label: PaymentMessages.filterState, kind: 'select', placeholder: 'Все', options: stateOptions },
    { name: 'created_at', label: 'Дата', kind: 'custom', render: (value, onChange) => <CreatedAtFilter value={value} onChange={onChange} /> },
  ];

  return (
    <ListPage title="Платежи" filters={filters} params={params} list={list} columns={columns} testId="payments" itemTestId="payment" minWidth={900}>
      <RefundModal payment={refunding} onClose={() => setRefunding(null)} />
    </ListPage>
  );
}
