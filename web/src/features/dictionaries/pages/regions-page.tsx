import { useState } from 'react';
import { Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import type { DictionaryItem } from '@edu/domain/dictionaries/dictionaries';
import { DataList, type ListColumn } from '../../../components/data-list';
import { errorMessage } from '../../../lib/api-client';
import { useDictionary } from '../../../lib/dictionaries';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useNarrow } from '../../../lib/use-narrow';

type RegionRow = DictionaryItem & { code?: string | null };

const columns: Array<ListColumn<RegionRow>> = [
  {
    key: 'code',
    label: 'Код',
    card: 'aside',
    width: 90,
    render: (r) => (
      <Text size="sm" ff="monospace">
        {r.code ?? '—'}
      </Text>
    ),
  },
  {
    key: 'fdv',
    label: 'Регион',
    card: 'title',
    render: (r) => (
      <Text size="sm" fw={500}>
        {r.fdv}
      </Text>
    ),
  },
];

/** /manager/regions: the subjects of the Russian Federation (read-only, spec 02 §2). */
export function RegionsPage() {
  useDocumentTitle('Регионы');
  const narrow = useNarrow();
  const regions = useDictionary('dict_regions');
  const [search, setSearch] = useState('');
  const needle = search.trim().toLowerCase();
  const rows = ((regions.data ?? []) as RegionRow[]).filter((r) => !needle || r.fdv.toLowerCase().includes(needle) || (r.code ?? '').startsWith(needle));
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end">
        <Group align="baseline" gap="md">
          <Title order={2}>Регионы</Title>
          <Text size="sm" c="dimmed">
            Всего: {rows.length}
          </Text>
        </Group>
        <TextInput
          aria-label="Поиск региона"
          placeholder="Название или код"
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          w={280}
        />
      </Group>
      <DataList
        rows={rows}
        columns={columns}
        rowKey={(r) => r.id}
        narrow={narrow}
        loading={regions.isPending}
        error={regions.isError ? errorMessage(regions.error) : null}
        testId="regions"
        itemTestId="region"
        minWidth={480}
      />
    </Stack>
  );
}
