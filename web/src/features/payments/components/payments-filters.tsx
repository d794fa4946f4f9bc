import { Select, TextInput } from '@mantine/core';
import { payTypeLabels } from '@edu/domain/common/codes';
import { DateTimeMaskInput } from '../../../components/date-time-mask-input';
import type { ServiceTypeItem } from '../../../lib/dictionaries';
import { FilterPanel } from './filter-panel';
import { SumInput } from './sum-input';

export interface PaymentFilterValues {
  entry_number: string;
  fio: string;
  serviceType: string | null;
  serviceTitle: string;
  sum: string;
  payType: string | null;
  uuid: string;
  created_at: string;
}

export const emptyPaymentFilters: PaymentFilterValues = {
  entry_number: '',
  fio: '',
  serviceType: null,
  serviceTitle: '',
  sum: '',
  payType: null,
  uuid: '',
  created_at: '',
};

export const payTypeOptions = Object.entries(payTypeLabels).map(([value, label]) => ({ value, label }));

export function countActive(values: object): number {
  return Object.values(values).filter((v) => (typeof v === 'string' ? v.trim() !== '' : Boolean(v))).length;
}

interface PaymentsFiltersProps {
  value: PaymentFilterValues;
  onChange: (value: PaymentFilterValues) => void;
  types: ServiceTypeItem[];
  narrow: boolean;
}

/** Filters of /manager/payments (spec 03 §7): Заявка, Клиент, Тип услуги, Услуга, Сумма, Тип оплаты, UUID, Дата. */
export function PaymentsFilters({ value, onChange, types, narrow }: PaymentsFiltersProps) {
  const set = <K extends keyof PaymentFilterValues>(key: K, v: PaymentFilterValues[K]) => onChange({ ...value, [key]: v });
  return (
    <FilterPanel active={countActive(value)} onReset={() => onChange(emptyPaymentFilters)} narrow={narrow}>
      <TextInput label="Заявка" placeholder="Номер заявки" value={value.entry_number} onChange={(e) => set('entry_number', e.currentTarget.value)} />
      <TextInput label="Клиент" placeholder="ФИО" value={value.fio} onChange={(e) => set('fio', e.currentTarget.value)} />
      <Select
        label="Тип услуги"
        placeholder="Все типы"
        data={types.map((t) => ({ value: String(t.id), label: t.fdv }))}
        value={value.serviceType}
        onChange={(v) => set('serviceType', v)}
        clearable
      />
      <TextInput label="Услуга" placeholder="Название" value={value.serviceTitle} onChange={(e) => set('serviceTitle', e.currentTarget.value)} />
      <SumInput value={value.sum} onChange={(v) => set('sum', v)} />
      <Select label="Тип оплаты" placeholder="Все" data={payTypeOptions} value={value.payType} onChange={(v) => set('payType', v)} clearable />
      <TextInput label="UUID" placeholder="Идентификатор платежа" value={value.uuid} onChange={(e) => set('uuid', e.currentTarget.value)} />
      <DateTimeMaskInput label="Дата" value={value.created_at} onChange={(v) => set('created_at', v)} />
    </FilterPanel>
  );
}
