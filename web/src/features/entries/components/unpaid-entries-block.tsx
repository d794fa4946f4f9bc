import { Anchor, Badge, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { DEFAULT_PAGE_SIZE, EntryStatus } from '@edu/domain/common/codes';
import { formatRub } from '@edu/domain/common/format';
import { EntryMessages, type Entry } from '@edu/domain/entries/entry';
import { cutText } from '../../../lib/text';
import { entriesQuery } from '../api/get-entries';
import { PayButton } from './pay-button';

const BLOCK_ITEMS = 4;

/**
 * Dashboard: up to 4 unpaid entries, filled with paid ones when fewer are unpaid (spec 01 §2).
 */
export function UnpaidEntriesBlock() {
  const unpaid = useQuery(entriesQuery({ status: EntryStatus.notPaid, page: 1, per_page: DEFAULT_PAGE_SIZE }));
  const needPaid = unpaid.isSuccess && unpaid.data.data.length < BLOCK_ITEMS;
  const paid = useQuery({ ...entriesQuery({ status: EntryStatus.paid, page: 1, per_page: DEFAULT_PAGE_SIZE }), enabled: needPaid });
  const items: Entry[] = [...(unpaid.data?.data ?? []), ...(needPaid ? (paid.data?.data ?? []) : [])].slice(0, BLOCK_ITEMS);
  const loading = unpaid.isPending || (needPaid && paid.isPending);

  return (
    <Paper p="lg" radius="lg" data-testid="unpaid-block">
      <Group justify="space-between" mb="md">
        <Title order={3} size="h4">
          Оплата заявок
        </Title>
        <Anchor component={Link} to="/user/entry" size="sm">
          Все заявки
        </Anchor>
      </Group>
      {loading ? (
        <Stack gap="sm">
          {[0, 1].map((i) => (
            <Skeleton key={i} h={56} radius="md" />
          ))}
        </Stack>
      ) : (
        <Stack gap="sm">
          {items.map((entry) => (
            <Group key={entry.id} justify="space-between" wrap="nowrap" gap="sm" py={6} style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}>
              <div style={{ minWidth: 0 }}>
                <Text size="sm" fw={500} title={entry.service.title} lh={1.35}>
                  {cutText(entry.service.title, 25)}
                </Text>
                <Text size="xs" c="dimmed">
                  № {entry.number} · {formatRub(entry.price)}
                </Text>
              </div>
              {entry.status === EntryStatus.notPaid ? (
                entry.is_service_package ? (
                  <Text size="xs" c="orange.8" ta="right" maw={160}>
                    {EntryMessages.awaitingProvider}
                  </Text>
                ) : (
                  <PayButton entryId={entry.id} price={entry.price} />
                )
              ) : (
                <Badge color={entry.statusColor} variant="light" tt="none">
                  {entry.statusLabel}
                </Badge>
              )}
            </Group>
          ))}
        </Stack>
      )}
    </Paper>
  );
}
