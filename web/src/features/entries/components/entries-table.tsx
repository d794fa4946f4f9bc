import { extramuralLabel } from '@edu/domain/common/codes';
import { ActionIcon, Anchor, Badge, Table, Text, Tooltip } from '@mantine/core';
import { IconPackage, IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { Entry } from '@edu/domain/entries/entry';
import { AddArticleButton, EntryActions, type EntryAction } from './entry-actions';
import { groupEntries } from './group-entries';
import { StatusPrice } from './status-price';
import { GuestBadge } from './guest-badge';
import { PackageReservation } from './package-reservation';
import { fadedStyle } from '../../../lib/faded';

export interface EntriesViewProps {
  entries: Entry[];
  onAction: (action: EntryAction, entry: Entry) => void;
  /** The operator's list shows the client. */
  showClient?: boolean;
}

export const entryDate = (entry: Entry) => entry.service.interval_formatted ?? 'без даты';

/**
 * Wide screens: the entries table (spec 01 §2 My entries). A package purchase is one row with the
 * package name and price (and its pay button), its entries below it.
 */
export function EntriesTable({ entries, onAction, showClient = false }: EntriesViewProps) {
  // The operator's table adds the client; to fit 1280 px the type then goes above the event's
  // title and the section below it, instead of columns of their own.
  const typeColumn = !showClient;
  const withSection = typeColumn && entries.some((e) => e.section);
  const columns = 5 + (typeColumn ? 1 : 0) + (showClient ? 1 : 0) + (withSection ? 1 : 0);
  return (
    <Table verticalSpacing="sm" horizontalSpacing="xs" highlightOnHover data-testid="entries-table" layout="auto">
      <Table.Thead>
        <Table.Tr>
          <Table.Th w={110}>Номер</Table.Th>
          {showClient && <Table.Th>Клиент</Table.Th>}
          {typeColumn && <Table.Th w={120}>Тип услуги</Table.Th>}
          <Table.Th>{typeColumn ? 'Мероприятие' : 'Тип услуги и мероприятие'}</Table.Th>
          {withSection && <Table.Th w={130}>Секция</Table.Th>}
          <Table.Th w={170}>Статус и цена</Table.Th>
          <Table.Th w={110}>Дата</Table.Th>
          <Table.Th w={1} aria-label="Действия" />
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {groupEntries(entries).map((item) =>
          item.kind === 'entry' ? (
            <EntryRow key={item.key} entry={item.entry} onAction={onAction} showClient={showClient} withSection={withSection} typeColumn={typeColumn} />
          ) : (
            <PackageRows
              key={item.key}
              title={item.title}
              price={item.price}
              lead={item.lead}
              entries={item.entries}
              columns={columns}
              onAction={onAction}
              showClient={showClient}
              withSection={withSection}
              typeColumn={typeColumn}
            />
          ),
        )}
      </Table.Tbody>
    </Table>
  );
}

interface RowProps {
  entry: Entry;
  onAction: (action: EntryAction, entry: Entry) => void;
  showClient: boolean;
  withSection: boolean;
  typeColumn: boolean;
  inPackage?: boolean;
}

function EntryRow({ entry, onAction, showClient, withSection, typeColumn, inPackage = false }: RowProps) {
  return (
    <Table.Tr style={fadedStyle(entry.deleted_at)} data-testid="entry-row" bg={inPackage ? 'var(--mantine-color-grape-0)' : undefined}>
      <Table.Td style={inPackage ? { boxShadow: 'inset 3px 0 0 var(--mantine-color-grape-4)' } : undefined}>
        <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
          {entry.number}
        </Text>
        <Text size="xs" c="dimmed">
          {entry.created_at_formatted}
        </Text>
      </Table.Td>
      {showClient && (
        <Table.Td>
          <Anchor component={Link} to={`/manager/users?id=${entry.user.id}`} size="sm">
            {entry.user.fio}
          </Anchor>
          <GuestBadge user={entry.user} />
        </Table.Td>
      )}
      {typeColumn && (
        <Table.Td>
          <Text size="sm">{entry.service.type ?? '—'}</Text>
        </Table.Td>
      )}
      <Table.Td>
        {!typeColumn && (
          <Text size="xs" c="dimmed">
            {entry.service.type ?? '—'}
          </Text>
        )}
        <Text size="sm" fw={500} lh={1.35}>
          {entry.service.title}
        </Text>
        {entry.publication && (
          <Text size="xs" data-testid="entry-article">
            Статья: «{entry.publication.title}»
          </Text>
        )}
        {!showClient && <AddArticleButton entry={entry} onAction={onAction} />}
        {!typeColumn && entry.section && <Text size="xs">Секция: {entry.section.title}</Text>}
        <Text size="xs" c="dimmed">
          {entry.payTypeLabel} · {extramuralLabel(entry.is_extramural)}
        </Text>
      </Table.Td>
      {withSection && (
        <Table.Td>
          <Text size="sm">{entry.section?.title ?? '—'}</Text>
        </Table.Td>
      )}
      <Table.Td>
        <StatusPrice entry={entry} inPackage={inPackage} />
      </Table.Td>
      <Table.Td>
        <Text size="sm">{entryDate(entry)}</Text>
      </Table.Td>
      <Table.Td>
        <EntryActions entry={entry} onAction={onAction} manager={showClient} noRemove={inPackage && !showClient} />
      </Table.Td>
    </Table.Tr>
  );
}

function PackageRows({
  title,
  price,
  lead,
  entries,
  columns,
  onAction,
  showClient,
  withSection,
  typeColumn,
}: Omit<RowProps, 'entry'> & { title: string; price: number; lead: Entry; entries: Entry[]; columns: number }) {
  const before = 1 + (typeColumn ? 1 : 0) + (showClient ? 1 : 0);
  return (
    <>
      <Table.Tr data-testid="package-row" bg="var(--mantine-color-grape-0)" style={fadedStyle(lead.deleted_at)}>
        <Table.Td colSpan={before} style={{ boxShadow: 'inset 3px 0 0 var(--mantine-color-grape-6)' }}>
          <Badge color="grape" variant="light" tt="none" leftSection={<IconPackage size={14} />}>
            Пакет услуг
          </Badge>
          {showClient && (
            <Text size="sm" mt={4}>
              {lead.user.fio}
            </Text>
          )}
        </Table.Td>
        <Table.Td colSpan={withSection ? 2 : 1}>
          <Text size="sm" fw={700} lh={1.35}>
            {title}
          </Text>
          <Text size="xs" c="dimmed">
            Услуг в пакете: {entries.length} · покупается и оплачивается целиком
          </Text>
          <PackageReservation until={lead.package_enrollment?.reserved_until} />
        </Table.Td>
        <Table.Td>
          <StatusPrice entry={lead} price={price} />
        </Table.Td>
        <Table.Td colSpan={columns - before - (withSection ? 2 : 1) - 2}>
          <Text size="sm" c="dimmed">
            {lead.created_at_formatted}
          </Text>
        </Table.Td>
        <Table.Td>
          {lead.can_edit && !lead.deleted_at && !showClient && (
            <Tooltip label="Удалить пакет" openDelay={300}>
              <ActionIcon variant="subtle" color="red" aria-label={`Удалить пакет услуг «${title}»`} onClick={() => onAction('remove', lead)}>
                <IconTrash size={18} stroke={1.6} />
              </ActionIcon>
            </Tooltip>
          )}
        </Table.Td>
      </Table.Tr>
      {entries.map((entry) => (
        <EntryRow key={entry.id} entry={entry} onAction={onAction} showClient={showClient} withSection={withSection} typeColumn={typeColumn} inPackage />
      ))}
    </>
  );
}
