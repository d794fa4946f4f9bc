import { Badge, Group, Stack, Text } from '@mantine/core';
import { EntryStatus } from '@edu/domain/common/codes';
import { formatRub } from '@edu/domain/common/format';
import { EntryMessages, type Entry } from '@edu/domain/entries/entry';
import { PayButton } from './pay-button';

/**
 * Status badge and price; an unpaid entry offers 'Оплатить {price} ₽'; a package entry whose
 * provider payment is open says 'Ожидается ответ платёжной системы' instead (spec 01 §2).
 */
export function StatusPrice({ entry }: { entry: Entry }) {
  const unpaid = entry.status === EntryStatus.notPaid && !entry.deleted_at;
  return (
    <Stack gap={6} align="flex-start">
      <Group gap={8} wrap="nowrap">
        <Badge color={entry.statusColor} variant="light" tt="none" style={{ flexShrink: 0, overflow: 'visible' }} data-testid="entry-status">
          {entry.statusLabel}
        </Badge>
        <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }} data-testid="entry-price">
          {formatRub(entry.price)}
        </Text>
      </Group>
      {unpaid &&
        (entry.awaiting_provider ? (
          <Text size="xs" c="orange.8">
            {EntryMessages.awaitingProvider}
          </Text>
        ) : (
          entry.price > 0 && <PayButton entryId={entry.id} price={entry.price} />
        ))}
    </Stack>
  );
}
