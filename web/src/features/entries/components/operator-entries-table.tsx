import type { ReactNode } from 'react';
import { Anchor, Badge, Group, Table, Text } from '@mantine/core';
import { IconPackage } from '@tabler/icons-react';
import { Link } from 'react-router';
import { EntryStatus } from '@edu/domain/common/codes';
import { EntryMessages, type Entry } from '@edu/domain/entries/entry';
import { ariaSort, SortHeader } from '../../../components/data-list';
import { EntryActions, type EntryAction } from './entry-actions';
import { entryDate } from './entries-table';
import { groupEntries } from './group-entries';
import { GuestBadge } from './guest-badge';
import { PackageReservation } from './package-reservation';
import { PayButton } from './pay-button';
import { priceText } from './status-price';

/** Badge labels that must never be cut ('Оплаче…'). */
const whole = { root: { overflow: 'visible', flexShrink: 0, height: 'auto', minHeight: 'var(--badge-height)' }, label: { overflow: 'visible', textOverflow: 'clip' } } as const;

/** The operators' list without `?sort=`: newest first (the server's default). */
export const ENTRY_DEFAULT_SORT = '-created_at';

export interface OperatorEntriesTableProps {
  entries: Entry[];
  onAction: (action: EntryAction, entry: Entry) => void;
  /** `?sort=` and how to change it: the headers sort the list. */
  sort?: string;
  onSort: (sort: string) => void;
}

/** A line of small grey facts joined by ' · ' (empty parts left out). */
function Facts({ parts }: { parts: Array<string | null | undefined | false> }) {
  const kept = parts.filter(Boolean);
  return (
    <Text size="xs" c="dimmed" lh={1.3}>
      {kept.join(' · ')}
    </Text>
  );
}

/**
 * Wide screens, the operators' entry list (spec 02 §2), one or two lines per entry: the number; the
 * client; the service's title with its type, dates, section, pay type and format on a small second
 * line; the status; the price; when it was made; and the icons. Every header but the icons' sorts
 * the list (kept in the address bar). In the default order (newest first) a package purchase is one
 * row with its entries under it; sorted by a column, each entry stands in its own place, marked
 * with the package's name, so the order seen is the order asked for.
 */
export function OperatorEntriesTable({ entries, onAction, sort, onSort }: OperatorEntriesTableProps) {
  const grouped = !sort || sort === ENTRY_DEFAULT_SORT;
  const th = (name: string, label: string, extra?: { w?: number; ta?: 'right' }) => (
    <Table.Th w={extra?.w} ta={extra?.ta} aria-sort={ariaSort(name, sort, ENTRY_DEFAULT_SORT)} style={{ whiteSpace: 'nowrap' }}>
      <SortHeader label={label} name={name} sort={sort} defaultSort={ENTRY_DEFAULT_SORT} onSort={onSort} />
    </Table.Th>
  );
  const items = grouped ? groupEntries(entries) : entries.map((entry) => ({ kind: 'entry' as const, key: `e${entry.id}`, entry }));
  return (
    <Table verticalSpacing={6} horizontalSpacing="xs" highlightOnHover data-testid="entries-table" layout="auto" fz="sm">
      <Table.Thead>
        <Table.Tr>
          {th('number', 'Номер', { w: 96 })}
          {th('fio', 'Клиент')}
          {th('service', 'Мероприятие')}
          {th('status', 'Статус', { w: 120 })}
          {th('price', 'Цена', { w: 96, ta: 'right' })}
          {th('created_at', 'Создана', { w: 104 })}
          <Table.Th w={1} aria-label="Действия" />
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

function Status({ entry, inPackage }: { entry: Entry; inPackage: boolean }) {
  const free = entry.price === 0 && !inPackage && entry.status !== EntryStatus.done;
  return (
    <>
      <Badge color={free ? 'teal' : entry.statusColor} variant="light" tt="none" size="sm" styles={whole} data-testid="entry-status">
        {free ? EntryMessages.free : entry.statusLabel}
      </Badge>
      {entry.awaiting_provider && (
        <Text size="xs" c="orange.8" lh={1.3}>
          {EntryMessages.awaitingProvider}
        </Text>
      )}
    </>
  );
}

function Price({ entry, price = entry.price }: { entry: Entry; price?: number }) {
  return (
    <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }} data-testid="entry-price">
      {priceText(price)}
    </Text>
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

/** «Отметить оплату» is offered: unpaid, not free, no provider payment under way. */
const unpaid = (entry: Entry) => entry.status === EntryStatus.notPaid && !entry.deleted_at && !entry.awaiting_provider;

function EntryRow({ entry, onAction, inPackage = false, packageMark = false }: { entry: Entry; onAction: OperatorEntriesTableProps['onAction']; inPackage?: boolean; packageMark?: boolean }) {
  const pkg = entry.package_enrollment && !entry.package_enrollment.broken ? entry.package_enrollment : null;
  const marked = packageMark && pkg;
  return (
    <Table.Tr
      style={{ opacity: entry.deleted_at ? 0.55 : 1, boxShadow: inPackage || marked ? 'inset 3px 0 0 var(--mantine-color-grape-4)' : undefined }}
      data-testid="entry-row"
      bg={inPackage ? 'var(--mantine-color-grape-0)' : undefined}
    >
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <Text size="sm" fw={600}>
          {entry.number}
        </Text>
      </Table.Td>
      <Table.Td>
        <Anchor component={Link} to={`/manager/users?id=${entry.user.id}`} size="sm" lh={1.3}>
          {entry.user.fio}
        </Anchor>
        <GuestBadge user={entry.user} />
      </Table.Td>
      <Table.Td>
        <Text size="sm" fw={500} lh={1.3}>
          {entry.service.title}
        </Text>
        {entry.publication && (
          <Text size="xs" lh={1.3} data-testid="entry-article">
            Статья: «{entry.publication.title}»
          </Text>
        )}
        <Facts
          parts={[
            marked && `Пакет «${pkg.title}»`,
            entry.service.type,
            entryDate(entry),
            entry.section && `Секция: ${entry.section.title}`,
            entry.payTypeLabel,
            entry.is_extramural ? 'Дистанционно' : 'Очно',
          ]}
        />
      </Table.Td>
      <Table.Td>
        <Status entry={entry} inPackage={inPackage} />
      </Table.Td>
      <Table.Td ta="right">{inPackage ? null : <Price entry={entry} />}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        <Text size="xs" c="dimmed">
          {entry.created_at_formatted}
        </Text>
      </Table.Td>
      <Table.Td>
        <Icons entry={entry} onAction={onAction} pay={!inPackage && !marked && unpaid(entry) && entry.price > 0} />
      </Table.Td>
    </Table.Tr>
  );
}

function PackageRows({ title, price, lead, entries, onAction }: { title: string; price: number; lead: Entry; entries: Entry[]; onAction: OperatorEntriesTableProps['onAction'] }): ReactNode {
  return (
    <>
      <Table.Tr data-testid="package-row" bg="var(--mantine-color-grape-0)" style={{ opacity: lead.deleted_at ? 0.55 : 1 }}>
        <Table.Td style={{ boxShadow: 'inset 3px 0 0 var(--mantine-color-grape-6)' }}>
          <Badge color="grape" variant="light" tt="none" size="sm" leftSection={<IconPackage size={12} />}>
            Пакет
          </Badge>
        </Table.Td>
        <Table.Td>
          <Text size="sm" lh={1.3}>
            {lead.user.fio}
          </Text>
        </Table.Td>
        <Table.Td>
          <Text size="sm" fw={700} lh={1.3}>
            {title}
          </Text>
          <Text size="xs" c="dimmed" lh={1.3}>
            Пакет услуг · услуг в пакете: {entries.length} · покупается и оплачивается целиком
          </Text>
          <PackageReservation until={lead.package_enrollment?.reserved_until} />
        </Table.Td>
        <Table.Td>
          <Status entry={lead} inPackage={false} />
        </Table.Td>
        <Table.Td ta="right">
          <Price entry={lead} price={price} />
        </Table.Td>
        <Table.Td style={{ whiteSpace: 'nowrap' }}>
          <Text size="xs" c="dimmed">
            {lead.created_at_formatted}
          </Text>
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
