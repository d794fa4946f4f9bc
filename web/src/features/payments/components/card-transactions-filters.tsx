import { Checkbox, Select, TextInput } from '@mantine/core';
import { providerStatusLabels } from '@edu/domain/payments/payment';
import type { ServiceTypeItem } from '../../../lib/dictionaries';
import { FilterPanel } from './filter-panel';
import { countActive } from './payments-filters';
import { SumInput } from './sum-input';

export interface CardTransactionFilterValues {
  status: string | null;
  uuid: string;
  entry_number: string;
  fio: string;
  isWithoutUser: boolean;
  serviceType: string | null;
  serviceTitle: string;
  sum: string;
}

export const emptyCardTransactionFilters: CardTransactionFilterValues = {
  status: null,
  uuid: '',
  entry_number: '',
  fio: '',
  isWithoutUser: false,
  serviceType: null,
  serviceTitle: '',
  sum: '',
};

const statusOptions = Object.entries(providerStatusLabels).map(([value, { label }]) => ({ value, label }));

interface CardTransactionsFiltersProps {
  value: CardTransactionFilterValues;
  onChange: (value: CardTransactionFilterValues) => void;
  types: ServiceTypeItem[];
  narrow: boolean;
}

/** Filters of /manager/yookassa (spec 03 §7): status, uuid, entry number, fio, without user, service type and title, sum. */
export function CardTransactionsFilters({ value, onChange, types, narrow }: CardTransactionsFiltersProps) {
  const set = <K extends keyof CardTransactionFilterValues>(key: K, v: CardTransactionFilterValues[K]) => onChange({ ...value, [key]: v });
  return (
    <FilterPanel active={countActive(value)} onReset={() => onChange(emptyCardTransactionFilters)} narrow={narrow}>
      <Select label="Статус" placeholder="Все" data={statusOptions} value={value.status} onChange={(v) => set('status', v)} clearable />
      <TextInput label="UUID" placeholder="Идентификатор платежа" value={value.uuid} onChange={(e) => set('uuid', e.currentTarget.value)} />
      <TextInput label="Заказ #" placeholder="Номер заявки" value={value.entry_number} onChange={(e) => set('entry_number', e.currentTarget.value)} />
      <TextInput label="ФИО" placeholder="Покупатель" value={value.fio} onChange={(e) => set('fio', e.currentTarget.value)} />
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
      <Checkbox
        label="Без пользователя"
        checked={value.isWithoutUser}
        onChange={(e) => set('isWithoutUser', e.currentTarget.checked)}
        styles={{ root: { alignSelf: 'end', paddingBottom: 8 } }}
      />
    </FilterPanel>
  );
}
