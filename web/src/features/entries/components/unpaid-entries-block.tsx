import { Anchor, Badge, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { DEFAULT_PAGE_SIZE, EntryStatus } from '@edu/domain/common/codes';
import { IconPackage } from '@tabler/icons-react';
import { EntryMessages, type Entry } from '@edu/domain/entries/entry';
import { cutText } from '../../../lib/text';
import { entriesQuery } from '../api/get-entries';
import { PayButton } from './pay-button';
import { groupEntries, isUnpaid } from './group-entries';
import { priceText } from './status-price';
import { PackageReservation } from './package-reservation';

const BLOCK_ITEMS = 4;

/**
 * Dashboard: up to 4 unpaid entries of the signed-in person (`userId`), filled with paid ones when
 * fewer are unpaid (spec 01 §2). Named explicitly: an operator's own cabinet lists their own entries,
 * not every client's (the figure «К оплате» beside it is theirs too).
 */
export function UnpaidEntriesBlock({ userId }: { userId: number }) {
  const unpaid = useQuery(entriesQuery({ status: EntryStatus.notPaid, created_by: userId, page: 1, per_page: DEFAULT_PAGE_SIZE }));
  const needPaid = unpaid.isSuccess && unpaid.data.data.length < BLOCK_ITEMS;
  const paid = useQuery({ ...entriesQuery({ status: EntryStatus.paid, created_by: userId, page: 1, per_page: DEFAULT_PAGE_SIZE }), enabled: needPaid });
  // A package purchase is one item, under its name and price.
  const items = groupEntries([...(unpaid.data?.data ?? []), ...(needPaid ? (paid.data?.data ?? []) : [])]).slice(0, BLOCK_ITEMS);
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
          {items.map((item) => {
            const entry: Entry = item.kind === 'entry' ? item.entry : item.lead;
            // A publication entry is told apart by its article (five entries of one journal read alike otherwise).
            const title = item.kind === 'entry' ? (entry.publication ? `«${entry.publication.title}»` : entry.service.title) : item.title;
            const price = item.kind === 'entry' ? entry.price : item.price;
            const numbers = item.kind === 'entry' ? entry.number : item.entries.map((e) => e.number).join(', ');
            return (
              <Group
                key={item.key}
                justify="space-between"
                wrap="wrap"
                gap="xs"
                py={6}
                style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}
                data-testid="unpaid-item"
              >
                <div style={{ minWidth: 0, flex: '1 1 180px' }}>
                  <Text size="sm" fw={500} title={title} lh={1.35}>
                    {item.kind === 'package' && (
                      <IconPackage size={14} style={{ verticalAlign: -2, marginRight: 4, color: 'var(--mantine-color-grape-6)' }} aria-label="Пакет услуг" />
                    )}
                    {cutText(title, 25)}
                  </Text>
                  <Text size="xs" c="dimmed">
                    № {numbers} · {priceText(price)}
                  </Text>
                  {item.kind === 'package' && <PackageReservation until={entry.package_enrollment?.reserved_until} />}
                </div>
                {isUnpaid(entry) ? (
                  entry.awaiting_provider ? (
                    <Text size="xs" c="orange.8" ta="right" maw={160}>
                      {EntryMessages.awaitingProvider}
                    </Text>
                  ) : (
                    price > 0 && <PayButton entryId={entry.id} price={price} entry={{ number: numbers, user: entry.user }} />
                  )
                ) : price === 0 ? (
                  <Badge color="teal" variant="light" tt="none">
                    {EntryMessages.free}
                  </Badge>
                ) : (
                  <Badge color={entry.statusColor} variant="light" tt="none">
                    {entry.statusLabel}
                  </Badge>
                )}
              </Group>
            );
          })}
        </Stack>
      )}
    </Paper>
  );
}
