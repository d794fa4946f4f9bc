import { payTypeLabels } from '@edu/domain/common/codes';
import { paymentListQuery } from '@edu/domain/payments/payment';
import { DateTimeMaskInput } from '../../../components/date-time-mask-input';
import type { FilterField } from '../../../components/filter-fields';
import { ListPage } from '../../../components/list-page';
import { useListParams } from '../../../components/use-list-params';
import { useDictionary } from '../../../lib/dictionaries';
import { usePayments } from '../api/get-payments';
import { paymentColumns } from '../components/payment-columns';
import { SumInput } from '../components/sum-input';

const payTypeOptions = Object.entries(payTypeLabels).map(([value, label]) => ({ value, label }));

/** /manager/payments 'Платежи' (spec 03 §2): every payment for entries, with filters kept in the URL. */
export function PaymentsPage() {
  const types = useDictionary('dict_service_types');
  const params = useListParams(paymentListQuery);
  const list = usePayments(params.query);
  const columns = paymentColumns(true);

  const filters: FilterField[] = [
    { name: 'entry_number', label: 'Заявка', kind: 'text', placeholder: 'Номер заявки' },
    { name: 'fio', label: 'Клиент', kind: 'text', placeholder: 'ФИО' },
    { name: 'serviceType', label: 'Тип услуги', kind: 'select', placeholder: 'Все типы', options: (types.data ?? []).map((t) => ({ value: String(t.id), label: t.fdv })) },
    { name: 'serviceTitle', label: 'Услуга', kind: 'text', placeholder: 'Название' },
    { name: 'sum', label: 'Сумма', kind: 'custom', render: (value, onChange) => <SumInput value={value} onChange={onChange} /> },
    { name: 'payType', label: 'Тип оплаты', kind: 'select', options: payTypeOptions },
    { name: 'uuid', label: 'UUID', kind: 'text', placeholder: 'Идентификатор платежа' },
    { name: 'created_at', label: 'Дата', kind: 'custom', render: (value, onChange) => <DateTimeMaskInput label="Дата" value={value} onChange={onChange} /> },
  ];

  return <ListPage title="Платежи" filters={filters} params={params} list={list} columns={columns} testId="payments" itemTestId="payment" minWidth={960} />;
}
