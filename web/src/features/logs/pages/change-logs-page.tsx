import { Anchor, Badge, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import { dateRangeProblem } from '@edu/domain/common/bounds';
import { changeLogListQuery, changeLogTypeLabels, impersonatorLabel, type ChangeLogRow } from '@edu/domain/logs/log';
import type { ListColumn } from '../../../components/data-list';
import type { FilterField } from '../../../components/filter-fields';
import { ListPage } from '../../../components/list-page';
import { useListParams } from '../../../components/use-list-params';
import { createdAtColumn } from '../../../components/created-at-column';
import { useChangeLogs } from '../api/get-change-logs';
import { RuDateFilter } from '../../../components/ru-date-filter';
import { ChangeDiffView } from '../components/change-diff';

const typeColor: Record<string, string> = { entry: 'blue', publication: 'orange', user: 'grape', service: 'teal', payment: 'green' };

const columns: Array<ListColumn<ChangeLogRow>> = [
  {
    key: 'type',
    label: 'Тип',
    card: 'title',
    render: (r) => (
      <Badge color={typeColor[r.type] ?? 'gray'} variant="light" tt="none">
        {r.type_label}
      </Badge>
    ),
  },
  {
    key: 'record',
    label: 'Запись',
    // On a card a line of its own (a long title wraps), not beside the type badge.
    maxWidth: 320,
    render: (r) =>
      r.record.url ? (
        <Anchor component={Link} to={r.record.url} size="sm" fw={600} style={{ overflowWrap: 'anywhere' }} data-testid="log-record">
          {r.record.label}
        </Anchor>
      ) : (
        <Text size="sm" fw={600} c="dimmed" data-testid="log-record">
          {r.record.label}
        </Text>
      ),
  },
  {
    key: 'user',
    label: 'Пользователь',
    maxWidth: 240,
    render: (r) => (
      <Stack gap={2}>
        {r.user ? (
          <Anchor component={Link} to={`/manager/users?id=${r.user.id}`} size="sm">
            {r.user_label}
          </Anchor>
        ) : (
          <Text size="sm" c="dimmed">
            {r.user_label}
          </Text>
        )}
        {r.impersonator && (
          <Text size="xs" c="orange.8" data-testid="log-impersonator">
            {impersonatorLabel(r.impersonator.fio)}
          </Text>
        )}
      </Stack>
    ),
  },
  { key: 'diff', label: 'Лог', maxWidth: 520, render: (r) => <ChangeDiffView changes={r.changes} /> },
  createdAtColumn('time', 'Время'),
];

const typeOptions = Object.entries(changeLogTypeLabels).map(([value, label]) => ({ value, label }));

/**
 * /manager/logs (spec 02 §2): type, the record by name with its link, user ('Система' for none; the operator when acting for a
 * client), the change in Russian, Moscow time; filters by type, the record as a person knows it (entry
 * number, client's name or e-mail, publication title; `?entity_id=` from links too), who acted and a
 * date range. A refused filter shows its message instead of the list.
 */
export function ChangeLogsPage() {
  const params = useListParams(changeLogListQuery);
  const list = useChangeLogs(params.query);
  const filters: FilterField[] = [
    { name: 'type', label: 'Тип', kind: 'select', options: typeOptions },
    { name: 'record', label: 'Запись', kind: 'text', placeholder: 'Номер заявки, клиент, e-mail, название' },
    // A link's `?entity_id=` (the Id of one record) is shown, and can be corrected or cleared, only when present.
    ...(params.values.entity_id ? [{ name: 'entity_id', label: 'Id записи', kind: 'text' as const, inputMode: 'numeric' as const }] : []),
    { name: 'fio', label: 'Кто изменил', kind: 'text', placeholder: 'ФИО' },
    { name: 'date_from', label: 'С даты', kind: 'custom', render: (value, onChange) => <RuDateFilter label="С даты" value={value} onChange={onChange} /> },
    {
      name: 'date_to',
      label: 'По дату',
      kind: 'custom',
      render: (value, onChange) => <RuDateFilter label="По дату" value={value} onChange={onChange} error={dateRangeProblem(params.values.date_from, value)} />,
    },
  ];
  return <ListPage title="Журнал изменений" filters={filters} params={params} list={list} columns={columns} testId="logs" itemTestId="log" minWidth={900} />;
}
