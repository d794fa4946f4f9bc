import { Anchor, Table, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { Entry } from '@edu/domain/entries/entry';
import { EntryActions, type EntryAction } from './entry-actions';
import { StatusPrice } from './status-price';

interface EntriesViewProps {
  entries: Entry[];
  onAction: (action: EntryAction, entry: Entry) => void;
  /** The operator's list shows the client. */
  showClient?: boolean;
}

export const entryDate = (entry: Entry) => entry.service.interval_formatted ?? 'без даты';

/** Wide screens: the entries table (spec 01 §2 My entries). */
export function EntriesTable({ entries, onAction, showClient = false }: EntriesViewProps) {
  const withSection = entries.some((e) => e.section);
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table verticalSpacing="sm" horizontalSpacing="xs" highlightOnHover data-testid="entries-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Номер</Table.Th>
            {showClient && <Table.Th>Клиент</Table.Th>}
            <Table.Th>Тип услуги</Table.Th>
            <Table.Th>Мероприятие</Table.Th>
            {withSection && <Table.Th>Секция</Table.Th>}
            <Table.Th>Статус и цена</Table.Th>
            <Table.Th>Дата</Table.Th>
            <Table.Th aria-label="Действия" />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {entries.map((entry) => (
            <Table.Tr key={entry.id} style={{ opacity: entry.deleted_at ? 0.55 : 1 }} data-testid="entry-row">
              <Table.Td>
                <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
                  {entry.number}
                </Text>
                <Text size="xs" c="dimmed">
                  {entry.created_at_formatted}
                </Text>
              </Table.Td>
              {showClient && (
                <Table.Td miw={160}>
                  <Anchor component={Link} to={`/manager/users?id=${entry.user.id}`} size="sm">
                    {entry.user.fio}
                  </Anchor>
                </Table.Td>
              )}
              <Table.Td>
                <Text size="sm">{entry.service.type ?? '—'}</Text>
              </Table.Td>
              <Table.Td miw={200} maw={360}>
                <Text size="sm" fw={500} lh={1.35}>
                  {entry.service.title}
                </Text>
                <Text size="xs" c="dimmed">
                  {entry.payTypeLabel} · {entry.is_extramural ? 'Дистанционно' : 'Очно'}
                </Text>
              </Table.Td>
              {withSection && (
                <Table.Td miw={130} maw={200}>
                  <Text size="sm">{entry.section?.title ?? '—'}</Text>
                </Table.Td>
              )}
              <Table.Td miw={160}>
                <StatusPrice entry={entry} />
              </Table.Td>
              <Table.Td miw={100} maw={140}>
                <Text size="sm">{entryDate(entry)}</Text>
              </Table.Td>
              <Table.Td>
                <EntryActions entry={entry} onAction={onAction} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
