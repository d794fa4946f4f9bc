import { Text } from '@mantine/core';
import type { ListColumn } from './data-list';

/** When a row was made ('dd.mm.yyyy hh:mm'), dimmed and on one line; top right on a card; `sort` its server sort name. */
export function createdAtColumn<T extends { created_at_formatted: string }>(key: string, label: string, sort?: string): ListColumn<T> {
  return {
    key,
    label,
    sort,
    card: 'aside',
    nowrap: true,
    render: (row) => (
      <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        {row.created_at_formatted}
      </Text>
    ),
  };
}
