import { Group, MultiSelect, SegmentedControl, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import type { ProfileItem } from '../../../lib/dictionaries';

export type Period = 'all' | 'past' | 'upcoming';

interface ServiceFiltersProps {
  profiles: ProfileItem[];
  profile: string[];
  onProfile: (ids: string[]) => void;
  leadings: Array<{ id: number; fio: string }>;
  leading: string[];
  onLeading: (ids: string[]) => void;
  period: Period;
  onPeriod: (period: Period) => void;
  title: string;
  onTitle: (title: string) => void;
}

/** Filters of the catalogue (spec 01 §2): work profile, leading, time period and title. */
export function ServiceFiltersBar({ profiles, profile, onProfile, leadings, leading, onLeading, period, onPeriod, title, onTitle }: ServiceFiltersProps) {
  return (
    <Group gap="sm" align="flex-end" wrap="wrap">
      <TextInput
        label="Название"
        placeholder="Найти по названию"
        leftSection={<IconSearch size={16} />}
        value={title}
        onChange={(event) => onTitle(event.currentTarget.value)}
        style={{ flex: '1 1 220px' }}
      />
      <ChoiceFilter
        label="Профиль"
        allLabel="Все профили"
        data={profiles.map((p) => ({ value: String(p.id), label: p.fdv }))}
        value={profile}
        onChange={onProfile}
        width={260}
      />
      <ChoiceFilter
        label="Ведущий"
        allLabel="Все ведущие"
        data={leadings.map((l) => ({ value: String(l.id), label: l.fio }))}
        value={leading}
        onChange={onLeading}
        width={220}
      />
      <SegmentedControl
        aria-label="Период"
        value={period}
        onChange={(v) => onPeriod(v as Period)}
        data={[
          { value: 'all', label: 'Все' },
          { value: 'upcoming', label: 'Предстоящие' },
          { value: 'past', label: 'Прошедшие' },
        ]}
      />
    </Group>
  );
}

/** A multiple choice that, while empty, says it shows everything. */
function ChoiceFilter({
  label,
  allLabel,
  data,
  value,
  onChange,
  width,
}: {
  label: string;
  allLabel: string;
  data: Array<{ value: string; label: string }>;
  value: string[];
  onChange: (ids: string[]) => void;
  width: number;
}) {
  return (
    <MultiSelect
      label={label}
      placeholder={value.length ? undefined : allLabel}
      data={data}
      value={value}
      onChange={onChange}
      clearable
      searchable
      nothingFoundMessage="Ничего не найдено"
      style={{ flex: `1 1 ${width}px` }}
      maxDropdownHeight={280}
    />
  );
}
