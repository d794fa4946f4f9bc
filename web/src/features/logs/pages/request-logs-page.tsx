import { Badge, Code, Spoiler, Text } from '@mantine/core';
import { REQUEST_LOG_COUNT_CAP, requestLogListQuery, requestStatusColor, type RequestLogRow } from '@edu/domain/logs/log';
import { BreakableText } from '../../../components/breakable-text';
import type { ListColumn } from '../../../components/data-list';
import type { FilterField } from '../../../components/filter-fields';
import { ListPage } from '../../../components/list-page';
import { useListParams } from '../../../components/use-list-params';
import { useRequestLogs } from '../api/get-request-logs';

const number = (n: number, digits = 1) => new Intl.NumberFormat('ru-RU', { maximumFractionDigits: digits }).format(n);

const columns: Array<ListColumn<RequestLogRow>> = [
  {
    key: 'method',
    label: 'Метод',
    card: 'title',
    render: (r) => (
      <Badge variant="outline" color="gray" radius="sm">
        {r.method}
      </Badge>
    ),
  },
  {
    key: 'path',
    label: 'Путь',
    card: 'title',
    maxWidth: 360,
    render: (r) => (
      // A long path wraps after its '/', '?' or '&' (a part longer than the column anywhere), the whole
      // path readable, never pushing «Ответ» out of view.
      <Text size="sm" ff="monospace" style={{ overflowWrap: 'anywhere' }} title={r.path}>
        <BreakableText text={r.path} after="/?&" />
      </Text>
    ),
  },
  {
    key: 'status',
    label: 'Статус',
    card: 'aside',
    render: (r) => (
      <Badge color={requestStatusColor(r.status)} variant={r.status === 422 ? 'light' : 'filled'} data-testid="request-status">
        {r.status}
      </Badge>
    ),
  },
  { key: 'duration', label: 'Время, мс', nowrap: true, render: (r) => number(r.duration_ms, 2) },
  { key: 'memory', label: 'Память, МБ', nowrap: true, render: (r) => number(r.memory_mb) },
  { key: 'time', label: 'Время', nowrap: true, render: (r) => r.created_at_formatted },
  { key: 'ip', label: 'IP', nowrap: true, render: (r) => r.ip ?? '—' },
  {
    key: 'response',
    label: 'Ответ',
    maxWidth: 320,
    render: (r) =>
      r.response ? (
        <Spoiler maxHeight={40} showLabel="Показать" hideLabel="Скрыть">
          <Code block style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {r.response}
          </Code>
        </Spoiler>
      ) : (
        '—'
      ),
  },
];

const filters: FilterField[] = [{ name: 'errorsOnly', label: 'Только ошибки', kind: 'checkbox' }];

/** /manager/api-requests (spec 02 §2): method, path, status, ms, MB, time, IP, response; errors only. */
export function RequestLogsPage() {
  const params = useListParams(requestLogListQuery);
  const list = useRequestLogs(params.query);
  return (
    <ListPage
      title="Запросы API"
      filters={filters}
      params={params}
      list={list}
      columns={columns}
      testId="requests"
      itemTestId="request"
      minWidth={880}
      countCap={REQUEST_LOG_COUNT_CAP}
    />
  );
}
