import { Group, SegmentedControl, Select, TextInput } from '@mantine/core';
import { entryStatusLabels } from '@edu/domain/common/codes';
import type { ServiceTypeItem } from '../../../lib/dictionaries';

export interface EntryFilterValues {
  number: string;
  type: string | null;
  service: string;
  status: string | null;
  deleted: 'all' | 'deleted';
}

export const emptyEntryFilters: EntryFilterValues = { number: '', type: null, service: '', status: null, deleted: 'all' };

interface EntriesFiltersProps {
  value: EntryFilterValues;
  onChange: (value: EntryFilterValues) => void;
  types: ServiceTypeItem[];
}

/** Filters of My entries: number, service type, event title, status, removed. */
export function EntriesFilters({ value, onChange, types }: EntriesFiltersProps) {
  const set = <K extends keyof EntryFilterValues>(key: K, v: EntryFilterValues[K]) => onChange({ ...value, [key]: v });
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <TextInput label="Номер" placeholder="2605-00001" value={value.number} onChange={(e) => set('number', e.currentTarget.value)} w={150} />
      <Select
        label="Тип услуги"
        placeholder="Все типы"
        data={types.map((t) => ({ value: String(t.id), label: t.fdv }))}
        value={value.type}
        onChange={(v) => set('type', v)}
        clearable
        style={{ flex: '1 1 200px' }}
      />
      <TextInput label="Мероприятие" placeholder="Название" value={value.service} onChange={(e) => set('service', e.currentTarget.value)} style={{ flex: '2 1 220px' }} />
      <Select
        label="Статус"
        placeholder="Все"
        data={Object.entries(entryStatusLabels).map(([code, label]) => ({ value: code, label }))}
        value={value.status}
        onChange={(v) => set('status', v)}
        clearable
        w={170}
      />
      <SegmentedControl
        aria-label="Удалённые заявки"
        value={value.deleted}
        onChange={(v) => set('deleted', v as EntryFilterValues['deleted'])}
        data={[
          { value: 'all', label: 'Все' },
          { value: 'deleted', label: 'Удалённые' },
        ]}
      />
    </Group>
  );
}
