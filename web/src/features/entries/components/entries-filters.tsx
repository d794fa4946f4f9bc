import { Checkbox, Group, InputBase, SegmentedControl, Select, TextInput } from '@mantine/core';
import { IMaskInput } from 'react-imask';
import { entryStatusLabels } from '@edu/domain/common/codes';
import { IMPOSSIBLE_DATE_MESSAGE, isRealDate } from '@edu/domain/entries/entry';
import type { ServiceTypeItem } from '../../../lib/dictionaries';

export interface EntryFilterValues {
  number: string;
  type: string | null;
  service: string;
  status: string | null;
  deleted: 'all' | 'deleted';
  /** Operators only. */
  fio: string;
  /** Operators only: creation day, dd.mm.yyyy. */
  date: string;
  /** Operators only: unpaid although the event has begun. */
  overdue: boolean;
}

export const emptyEntryFilters: EntryFilterValues = { number: '', type: null, service: '', status: null, deleted: 'all', fio: '', date: '', overdue: false };

/** A complete, real dd.mm.yyyy, or nothing: half-typed and impossible dates are not sent. */
export const completeDate = (value: string) => (isRealDate(value) ? value : undefined);

/** The field's own message for a complete but impossible date (31.02.2024). */
const dateProblem = (value: string) => (/^\d{2}\.\d{2}\.\d{4}$/.test(value) && !isRealDate(value) ? IMPOSSIBLE_DATE_MESSAGE : null);

interface EntriesFiltersProps {
  value: EntryFilterValues;
  onChange: (value: EntryFilterValues) => void;
  types: ServiceTypeItem[];
  /** The operator's list adds full name and creation date (spec 02 §2 Entries list). */
  manager?: boolean;
}

/** Filters of My entries: number, service type, event title, status, removed. */
export function EntriesFilters({ value, onChange, types, manager = false }: EntriesFiltersProps) {
  const set = <K extends keyof EntryFilterValues>(key: K, v: EntryFilterValues[K]) => onChange({ ...value, [key]: v });
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <TextInput label="Номер" placeholder="2605-00001" value={value.number} onChange={(e) => set('number', e.currentTarget.value)} w={150} />
      {manager && (
        <TextInput label="ФИО" placeholder="Фамилия Имя" value={value.fio} onChange={(e) => set('fio', e.currentTarget.value)} style={{ flex: '1 1 180px' }} />
      )}
      <Select
        label="Тип услуги"
        placeholder="Все типы"
        data={types.map((t) => ({ value: String(t.id), label: t.fdv }))}
        value={value.type}
        onChange={(v) => set('type', v)}
        clearable
        style={{ flex: '1 1 200px' }}
      />
      <TextInput
        label="Мероприятие"
        placeholder="Название"
        value={value.service}
        onChange={(e) => set('service', e.currentTarget.value)}
        style={{ flex: '2 1 220px' }}
      />
      <Select
        label="Статус"
        placeholder="Все"
        data={Object.entries(entryStatusLabels).map(([code, label]) => ({ value: code, label }))}
        value={value.status}
        onChange={(v) => set('status', v)}
        clearable
        w={170}
      />
      {manager && (
        <InputBase
          label="Дата создания"
          component={IMaskInput}
          mask="00.00.0000"
          placeholder="дд.мм.гггг"
          value={value.date}
          onAccept={(v: string) => set('date', v)}
          error={dateProblem(value.date)}
          inputMode="numeric"
          w={130}
        />
      )}
      <SegmentedControl
        aria-label="Удалённые заявки"
        value={value.deleted}
        onChange={(v) => set('deleted', v as EntryFilterValues['deleted'])}
        data={[
          { value: 'all', label: 'Все' },
          { value: 'deleted', label: 'Удалённые' },
        ]}
      />
      {manager && (
        <Checkbox
          label="Не оплачены, а мероприятие уже началось"
          checked={value.overdue}
          onChange={(e) => set('overdue', e.currentTarget.checked)}
          style={{ alignSelf: 'center' }}
        />
      )}
    </Group>
  );
}
