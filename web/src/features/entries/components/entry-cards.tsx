import { Group, Paper, Stack, Text } from '@mantine/core';
import type { Entry } from '@edu/domain/entries/entry';
import { EntryActions, type EntryAction } from './entry-actions';
import { entryDate } from './entries-table';
import { StatusPrice } from './status-price';

/** Narrow screens (1199 px or less): one card per entry. */
export function EntryCards({ entries, onAction, showClient = false }: { entries: Entry[]; onAction: (action: EntryAction, entry: Entry) => void; showClient?: boolean }) {
  return (
    <Stack gap="sm" data-testid="entries-cards">
      {entries.map((entry) => (
        <Paper key={entry.id} p="md" radius="md" style={{ opacity: entry.deleted_at ? 0.55 : 1 }} data-testid="entry-card">
          <Stack gap={8}>
            <Group justify="space-between" wrap="nowrap" align="flex-start">
              <div>
                <Text size="sm" fw={600}>
                  № {entry.number}
                </Text>
                <Text size="xs" c="dimmed">
                  {entry.service.type ?? '—'}
                </Text>
              </div>
              <EntryActions entry={entry} onAction={onAction} />
            </Group>
            {showClient && (
              <Text size="sm" fw={500}>
                {entry.user.fio}
              </Text>
            )}
            <Text fw={500} lh={1.35}>
              {entry.service.title}
            </Text>
            {entry.section && (
              <Text size="sm">
                <Text span c="dimmed" size="sm">
                  Секция:{' '}
                </Text>
                {entry.section.title}
              </Text>
            )}
            <Text size="sm">
              <Text span c="dimmed" size="sm">
                Дата:{' '}
              </Text>
              {entryDate(entry)}
            </Text>
            <StatusPrice entry={entry} />
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}
