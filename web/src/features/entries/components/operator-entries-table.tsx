import type { ReactNode } from 'react';
import { Anchor, Badge, Group, Stack, Table, Text } from '@mantine/core';
import { IconPackage } from '@tabler/icons-react';
import { Link } from 'react-router';
import { EntryStatus, extramuralLabel } from '@edu/domain/common/codes';
import { EntryMessages, type Entry } from '@edu/domain/entries/entry';
import { ariaSort, SortHeader } from '../../../components/data-list';
import { EntryActions, type EntryAction } from './entry-actions';
import { entryDate } from './entries-table';
import { groupEntries } from './group-entries';
import { GuestBadge } from './guest-badge';
import { PackageReservation } from './package-reservation';
import { PayButton } from './pay-button';
import { priceText } from './status-price';
import { fadedStyle } from '../../../lib/faded';

/** Badge labels that must never be cut ('Оплаче…'). */
const whole = {
  root: { overflow: 'visible', flexShrink: 0, height: 'auto', minHeight: 'var(--badge-height)' },
  label: { overflow: 'visible', textOverflow: 'clip' },
} as const;

/** The operators' list without `?sort=`: newest first (the server's default). */
export const ENTRY_DEFAULT_SORT = '-created_at';

export interface OperatorEntriesTableProps {
  entries: Entry[];
  onAction: (action: EntryAction, entry: Entry) => void;
  /** `?sort=` and how to change it: the headers sort the list. */
  sort?: string;
  onSort: (sort: string) => void;
}

/** One or two header buttons stacked in one header cell; aria-sort says the direction of the one in force. */
function SortTh({
  names,
  sort,
  onSort,
  w,
  ta,
}: {
  names: Array<[string, string]>;
  sort?: string;
  onSort: (sort: string) => void;
  w?: number | string;
  ta?: 'right';
}) {
  const inForce = names.map(([name]) => ariaSort(name, sort, ENTRY_DEFAULT_SORT)).find(Boolean);
  return (
    <Table.Th w={w} ta={ta} aria-sort={inForce} style={{ whiteSpace: 'nowrap', verticalAlign: 'bottom' }}>
      <Stack gap={0} align={ta === 'right' ? 'flex-end' : 'flex-start'}>
        {names.map(([name, label]) => (
          <SortHeader key={name} label={label} name={name} sort={sort} defaultSort={ENTRY_DEFAULT_SORT} onSort={onSort} />
        ))}
      </Stack>
    </Table.Th>
  );
}

/** One line cut with an ellipsis; the whole text on hover. */
const oneLine = { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' } as const;

/**
 * Wide screens, the operators' entry list (spec 02 §2), two lines per entry: the number over the
 * day it was made; the client; the service's title over its type, dates, section, pay type and
 * format (each line cut to the column with the whole text on hover); the status over the price; and
 * the icons. The headers sort the list (kept in the address bar): number and date of creation, client,
 * service, status and price. In the default order (newest first) a package purchase is one row with
 * its entries under it; sorted by a column, each entry stands in its own place, marked with the
 * package's name, so the order seen is the order asked for.
 */
export function OperatorEntriesTable({ entries, onAction, sort, onSort }: OperatorEntriesTableProps) {
  const grouped = !sort || sort === ENTRY_DEFAULT_SORT;
  const items = grouped ? groupEntries(entries) : entries.map((entry) => ({ kind: 'entry' as const, key: `e${entry.id}`, entry }));
  return (
    <Table verticalSpacing={6} horizontalSpacing={8} highlightOnHover data-testid="entries-table" layout="fixed" fz="sm">
      <Table.Thead>
        <Table.Tr>
          <SortTh
            names={[
              ['number', 'Номер'],
              ['created_at', 'Создана'],
            ]}
            sort={sort}
            onSort={onSort}
            w={118}
          />
          <SortTh names={[['fio', 'Клиент']]} sort={sort} onSort={onSort} w="22%" />
          <SortTh names={[['service', 'Мероприятие']]} sort={sort} onSort={onSort} />
          <SortTh
            names={[
              ['status', 'Статус'],
              ['price', 'Цена'],
            ]}
            sort={sort}
            onSort={onSort}
            w={132}
          />
          {/* From 1408 px «Отметить оплату» has its words (pay-button.tsx): the column makes room. */}
          <Table.Th w={{ base: 132, xl: 276 }} aria-label="Действия" />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {items.map((item) =>
          item.kind === 'entry' ? (
            <EntryRow key={item.key} entry={item.entry} onAction={onAction} packageMark={!grouped} />
          ) : (
            <PackageRows key={item.key} title={item.title} price={item.price} lead={item.lead} entries={item.entries} onAction={onAction} />
          ),
        )}
      </Table.Tbody>
    </Table>
  );
}

/** The status badge over the price (a package's own entries show the status only: the purchase carries the price). */
function StatusPrice({ entry, price = entry.price, inPackage = false }: { entry: Entry; price?: number; inPackage?: boolean }) {
  const free = price === 0 && !inPackage && entry.status !== EntryStatus.done;
  return (
    <Stack gap={2} align="flex-start">
      <Badge color={free ? 'teal' : entry.statusColor} variant="light" tt="none" size="sm" styles={whole} data-testid="entry-status">
        {free ? EntryMessages.free : entry.statusLabel}
      </Badge>
      {!inPackage && !free && (
        <Text size="sm" fw={600} lh={1.3} style={{ whiteSpace: 'nowrap' }} data-testid="entry-price">
          {priceText(price)}
        </Text>
      )}
      {entry.awaiting_provider && (
        <Text size="xs" c="orange.8" lh={1.3}>
          {EntryMessages.awaitingProvider}
        </Text>
      )}
    </Stack>
  );
}

/** The icons of an entry: «Отметить оплату» first while it is unpaid, then the operators' own set. */
function Icons({ entry, onAction, pay }: { entry: Entry; onAction: OperatorEntriesTableProps['onAction']; pay: boolean }) {
  return (
    <Group gap={2} wrap="nowrap" justify="flex-end">
      {pay && <PayButton entryId={entry.id} price={entry.price} entry={entry} iconOnly />}
      <EntryActions entry={entry} onAction={onAction} manager />
    </Group>
  );
}

/** «Отметить оплату» is offered: unpaid, no provider payment under way. */
const unpaid = (entry: Entry) => entry.status === EntryStatus.notPaid && !entry.deleted_at && !entry.awaiting_provider;

/** The number over the day the entry (or purchase) was made. */
function NumberCell({ number, created }: { number: string; created: string }) {
  return (
    <Table.Td>
      <Text size="sm" fw={600} lh={1.3} style={{ whiteSpace: 'nowrap' }}>
        {number}
      </Text>
      <Text size="xs" c="dimmed" lh={1.3} style={{ whiteSpace: 'nowrap' }}>
        {created}
      </Text>
    </Table.Td>
  );
}

function EntryRow({
  entry,
  onAction,
  inPackage = false,
  packageMark = false,
}: {
  entry: Entry;
  onAction: OperatorEntriesTableProps['onAction'];
  inPackage?: boolean;
  packageMark?: boolean;
}) {
  const pkg = entry.package_enrollment && !entry.package_enrollment.broken ? entry.package_enrollment : null;
  const marked = packageMark && pkg;
  const facts = [
    marked && `Пакет «${pkg.title}»`,
    entry.service.type,
    entryDate(entry),
    entry.section && `Секция: ${entry.section.title}`,
    entry.payTypeLabel,
    extramuralLabel(entry.is_extramural),
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <Table.Tr
      style={{ ...fadedStyle(entry.deleted_at), boxShadow: inPackage || marked ? 'inset 3px 0 0 var(--mantine-color-grape-4)' : undefined }}
      data-testid="entry-row"
      bg={inPackage ? 'var(--mantine-color-grape-0)' : undefined}
    >
      <NumberCell number={entry.number} created={entry.created_at_formatted} />
      <Table.Td>
        <Anchor component={Link} to={`/manager/users?id=${entry.user.id}`} size="sm" lh={1.3} lineClamp={2} title={entry.user.fio}>
          {entry.user.fio}
          <GuestBadge user={entry.user} />
        </Anchor>
      </Table.Td>
      <Table.Td>
        <Text size="sm" fw={500} lh={1.3} style={oneLine} title={entry.service.title}>
          {entry.service.title}
        </Text>
        {entry.publication && (
          <Text size="xs" lh={1.3} style={oneLine} title={entry.publication.title} data-testid="entry-article">
            Статья: «{entry.publication.title}»
          </Text>
        )}
        <Text size="xs" c="dimmed" lh={1.3} style={oneLine} title={facts}>
          {facts}
        </Text>
      </Table.Td>
      <Table.Td>
        <StatusPrice entry={entry} inPackage={inPackage} />
      </Table.Td>
      <Table.Td>
        <Icons entry={entry} onAction={onAction} pay={!inPackage && !marked && unpaid(entry) && entry.price > 0} />
      </Table.Td>
    </Table.Tr>
  );
}

function PackageRows({
  title,
  price,
  lead,
  entries,
  onAction,
}: {
  title: string;
  price: number;
  lead: Entry;
  entries: Entry[];
  onAction: OperatorEntriesTableProps['onAction'];
}): ReactNode {
  const about = `Пакет услуг · услуг в пакете: ${entries.length} · покупается и оплачивается целиком`;
  return (
    <>
      <Table.Tr
        data-testid="package-row"
        bg="var(--mantine-color-grape-0)"
        style={{ ...fadedStyle(lead.deleted_at), boxShadow: 'inset 3px 0 0 var(--mantine-color-grape-6)' }}
      >
        <Table.Td>
          <Badge color="grape" variant="light" tt="none" size="sm" leftSection={<IconPackage size={12} />}>
            Пакет
          </Badge>
          <Text size="xs" c="dimmed" lh={1.3} style={{ whiteSpace: 'nowrap' }}>
            {lead.created_at_formatted}
          </Text>
        </Table.Td>
        <Table.Td>
          <Text size="sm" lh={1.3} lineClamp={2} title={lead.user.fio}>
            {lead.user.fio}
          </Text>
        </Table.Td>
        <Table.Td>
          <Text size="sm" fw={700} lh={1.3} style={oneLine} title={title}>
            {title}
          </Text>
          <Text size="xs" c="dimmed" lh={1.3} style={oneLine} title={about}>
            {about}
          </Text>
          <PackageReservation until={lead.package_enrollment?.reserved_until} />
        </Table.Td>
        <Table.Td>
          <StatusPrice entry={lead} price={price} />
        </Table.Td>
        <Table.Td>
          {unpaid(lead) && price > 0 && (
            <Group gap={2} justify="flex-end" wrap="nowrap">
              <PayButton entryId={lead.id} price={price} entry={lead} iconOnly />
            </Group>
          )}
        </Table.Td>
      </Table.Tr>
      {entries.map((entry) => (
        <EntryRow key={entry.id} entry={entry} onAction={onAction} inPackage />
      ))}
    </>
  );
}
