import { Group, MultiSelect, SegmentedControl, TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import type { ProfileItem } from '../../../lib/dictionaries';

export type Period = 'all' | 'past' | 'upcoming';

interface ServiceFiltersProps {
  profiles: ProfileItem[];
  profile: string[];
  onProfile: (ids: string[]) => void;
  period: Period;
  onPeriod: (period: Period) => void;
  title: string;
  onTitle: (title: string) => void;
}

/** Filters of the catalogue: work profile, time period and title. */
export function ServiceFiltersBar({ profiles, profile, onProfile, period, onPeriod, title, onTitle }: ServiceFiltersProps) {
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
      <MultiSelect
        label="Профиль"
        placeholder={profile.length ? undefined : 'Все профили'}
        data={profiles.map((p) => ({ value: String(p.id), label: p.fdv }))}
        value={profile}
        onChange={onProfile}
        clearable
        searchable
        nothingFoundMessage="Ничего не найдено"
        style={{ flex: '1 1 260px' }}
        maxDropdownHeight={280}
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
