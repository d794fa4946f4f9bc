import { ActionIcon, Anchor, Badge, Group, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { Link } from 'react-router';
import { IconPackage, IconTrash } from '@tabler/icons-react';
import { EntryStatus, extramuralLabel } from '@edu/domain/common/codes';
import { EntryMessages, type Entry } from '@edu/domain/entries/entry';
import { AddArticleButton, EntryActions } from './entry-actions';
import { entryDate, type EntriesViewProps } from './entries-table';
import { groupEntries } from './group-entries';
import { priceText, StatusPrice } from './status-price';
import { PayButton } from './pay-button';
import { GuestBadge } from './guest-badge';
import { PackageReservation } from './package-reservation';
import { fadedStyle } from '../../../lib/faded';

/**
 * Narrow screens (1199 px or less): one card per entry; a package purchase is one card holding its
 * entries, unless `flat` (a list sorted by a column: each entry in its own place).
 */
export function EntryCards({ entries, onAction, showClient = false, flat = false }: EntriesViewProps & { flat?: boolean }) {
  const items = flat ? entries.map((entry) => ({ kind: 'entry' as const, key: `e${entry.id}`, entry })) : groupEntries(entries);
  return (
    <Stack gap="sm" data-testid="entries-cards">
      {items.map((item) =>
        item.kind === 'entry' ? (
          <Paper key={item.key} p={showClient ? 'sm' : 'md'} radius="md" style={fadedStyle(item.entry.deleted_at)} data-testid="entry-card">
            <EntryCardBody entry={item.entry} onAction={onAction} showClient={showClient} />
          </Paper>
        ) : (
          <Paper
            key={item.key}
            p="md"
            radius="md"
            data-testid="package-purchase-card"
            style={{ ...fadedStyle(item.lead.deleted_at), boxShadow: 'inset 3px 0 0 var(--mantine-color-grape-6)' }}
          >
            <Stack gap="sm">
              <Group justify="space-between" wrap="nowrap" align="flex-start">
                <Stack gap={4} style={{ minWidth: 0 }}>
                  <Badge color="grape" variant="light" tt="none" leftSection={<IconPackage size={14} />}>
                    Пакет услуг
                  </Badge>
                  {showClient && (
                    <Text size="sm" fw={500}>
                      {item.lead.user.fio}
                    </Text>
                  )}
                  <Text fw={700} lh={1.35}>
                    {item.title}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {item.lead.created_at_formatted} · покупается и оплачивается целиком
                  </Text>
                  <PackageReservation until={item.lead.package_enrollment?.reserved_until} />
                </Stack>
                {item.lead.can_edit && !item.lead.deleted_at && !showClient && (
                  <Tooltip label="Удалить пакет" openDelay={300}>
                    <ActionIcon variant="subtle" color="red" aria-label={`Удалить пакет услуг «${item.title}»`} onClick={() => onAction('remove', item.lead)}>
                      <IconTrash size={18} stroke={1.6} />
                    </ActionIcon>
                  </Tooltip>
                )}
              </Group>
              <StatusPrice entry={item.lead} price={item.price} />
              {item.entries.map((entry) => (
                <Paper key={entry.id} p="sm" radius="md" withBorder data-testid="entry-card">
                  <EntryCardBody entry={entry} onAction={onAction} showClient={false} manager={showClient} inPackage noRemove={!showClient} />
                </Paper>
              ))}
            </Stack>
          </Paper>
        ),
      )}
    </Stack>
  );
}

function EntryCardBody({
  entry,
  onAction,
  showClient,
  manager = showClient,
  inPackage = false,
  noRemove = false,
}: {
  entry: Entry;
  onAction: EntriesViewProps['onAction'];
  showClient: boolean;
  /** The operators' list (their actions); a package's inner entries show no client but are the operators' too. */
  manager?: boolean;
  inPackage?: boolean;
  noRemove?: boolean;
}) {
  if (manager) return <OperatorCardBody entry={entry} onAction={onAction} showClient={showClient} inPackage={inPackage} />;
  return (
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
        <EntryActions entry={entry} onAction={onAction} manager={manager} noRemove={noRemove} />
      </Group>
      {showClient && (
        <div>
          <Anchor component={Link} to={`/manager/users?id=${entry.user.id}`} size="sm" fw={500}>
            {entry.user.fio}
          </Anchor>
          <GuestBadge user={entry.user} />
        </div>
      )}
      <Text fw={500} lh={1.35}>
        {entry.service.title}
      </Text>
      {entry.publication && (
        <Text size="sm" data-testid="entry-article">
          Статья: «{entry.publication.title}»
        </Text>
      )}
      {!manager && (
        <div>
          <AddArticleButton entry={entry} onAction={onAction} />
        </div>
      )}
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
      <StatusPrice entry={entry} inPackage={inPackage} />
    </Stack>
  );
}

/**
 * An entry on an operator's card, in four lines: the number and day it was made with the status and
 * price; the client with the icons (edit, history, the menu; «Отметить оплату» while unpaid); the
 * service's title; its type, dates, section, pay type and format in small print.
 */
function OperatorCardBody({
  entry,
  onAction,
  showClient,
  inPackage,
}: {
  entry: Entry;
  onAction: EntriesViewProps['onAction'];
  showClient: boolean;
  inPackage: boolean;
}) {
  const free = entry.price === 0 && !inPackage && entry.status !== EntryStatus.done;
  const unpaid = entry.status === EntryStatus.notPaid && !entry.deleted_at && !entry.awaiting_provider && entry.price > 0 && !inPackage;
  const facts = [
    entry.service.type,
    entryDate(entry),
    entry.section && `Секция: ${entry.section.title}`,
    entry.payTypeLabel,
    extramuralLabel(entry.is_extramural),
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <Stack gap={4}>
      {/* The status and price go under the number when a long status and a five-digit price do not fit beside it (390 px). */}
      <Group justify="space-between" wrap="wrap" gap="xs" style={{ rowGap: 2 }}>
        <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
          № {entry.number}{' '}
          <Text span size="xs" c="dimmed" fw={400}>
            {entry.created_at_formatted}
          </Text>
        </Text>
        <Group gap={6} wrap="nowrap">
          <Badge color={free ? 'teal' : entry.statusColor} variant="light" tt="none" size="sm" style={{ flexShrink: 0 }} data-testid="entry-status">
            {free ? EntryMessages.free : entry.statusLabel}
          </Badge>
          {!inPackage && !free && (
            <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }} data-testid="entry-price">
              {priceText(entry.price)}
            </Text>
          )}
        </Group>
      </Group>
      <Group justify="space-between" wrap="nowrap" gap="xs" align="center">
        <div style={{ minWidth: 0 }}>
          {showClient && (
            <Anchor component={Link} to={`/manager/users?id=${entry.user.id}`} size="sm" fw={500}>
              {entry.user.fio}
            </Anchor>
          )}
          {showClient && <GuestBadge user={entry.user} />}
        </div>
        <Group gap={2} wrap="nowrap" style={{ flexShrink: 0 }}>
          {unpaid && <PayButton entryId={entry.id} price={entry.price} entry={entry} iconOnly />}
          <EntryActions entry={entry} onAction={onAction} manager />
        </Group>
      </Group>
      <Text size="sm" fw={500} lh={1.3}>
        {entry.service.title}
      </Text>
      {entry.publication && (
        <Text size="xs" lh={1.3} data-testid="entry-article">
          Статья: «{entry.publication.title}»
        </Text>
      )}
      <Text size="xs" c="dimmed" lh={1.3}>
        {facts}
      </Text>
      {entry.awaiting_provider && (
        <Text size="xs" c="orange.8">
          {EntryMessages.awaitingProvider}
        </Text>
      )}
    </Stack>
  );
}
