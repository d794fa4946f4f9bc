import { Badge, Button, Stack, Text } from '@mantine/core';
import { bankLineProblemLabels, bankLineStatusLabels, type BankLine, type BankLineStatus } from '@edu/domain/bank-statements/bank-statement';
import { formatDateTime, formatRub } from '@edu/domain/common/format';
import type { ListColumn } from '../../../components/data-list';

const STATUS_COLORS: Record<BankLineStatus, string> = { paid: 'teal', manual: 'yellow', assigned: 'blue', ignored: 'gray' };

/** The columns of the statement lines, with the actions of a line waiting for an operator. */
export function lineColumns(onAssign: (line: BankLine) => void, onIgnore: (line: BankLine) => void): Array<ListColumn<BankLine>> {
  return [
    {
      key: 'doc',
      label: 'Документ',
      card: 'title',
      width: 120,
      sort: 'created_at',
      render: (l) => (
        <Stack gap={0}>
          <Text size="sm" fw={600}>
            № {l.doc_number}
          </Text>
          <Text size="xs" c="dimmed">
            от {l.doc_date}
          </Text>
          <Text size="xs" c="dimmed">
            загружен {formatDateTime(l.created_at)}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'sum',
      label: 'Сумма',
      card: 'aside',
      width: 110,
      sort: 'sum',
      nowrap: true,
      render: (l) => <Text fw={600}>{formatRub(l.sum)}</Text>,
    },
    {
      key: 'payer',
      label: 'Плательщик',
      width: 170,
      render: (l) => (
        <Stack gap={0}>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {l.payer_name || '—'}
          </Text>
          {l.payer_inn && (
            <Text size="xs" c="dimmed">
              ИНН {l.payer_inn}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      key: 'purpose',
      label: 'Назначение платежа',
      render: (l) => (
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {l.purpose || '—'}
        </Text>
      ),
    },
    {
      key: 'status',
      label: 'Состояние',
      width: 200,
      render: (l) => (
        <Stack gap={4} align="flex-start">
          <Badge color={STATUS_COLORS[l.status]} variant="light">
            {bankLineStatusLabels[l.status]}
          </Badge>
          {l.status === 'manual' && l.problem && (
            <Text size="xs" fw={600}>
              {bankLineProblemLabels[l.problem]}
            </Text>
          )}
          {l.status === 'manual' && l.note && <Text size="xs">{l.note}</Text>}
          {l.entries.length > 0 && <Text size="xs">Заявки № {l.entries.map((e) => e.number).join(', ')}</Text>}
          {l.ignore_reason && <Text size="xs">Причина: {l.ignore_reason}</Text>}
          {l.resolved_by && l.status !== 'paid' && (
            <Text size="xs" c="dimmed">
              Оператор: {l.resolved_by}
            </Text>
          )}
        </Stack>
      ),
    },
    {
      key: 'actions',
      label: 'Действия',
      card: 'footer',
      width: 175,
      render: (l) =>
        l.status === 'manual' ? (
          <Stack gap={6} align="flex-start">
            <Button size="xs" onClick={() => onAssign(l)} aria-label={`Отнести к заявкам платёж № ${l.doc_number}`}>
              Отнести к заявкам
            </Button>
            <Button size="xs" variant="default" onClick={() => onIgnore(l)} aria-label={`Пропустить платёж № ${l.doc_number}`}>
              Пропустить
            </Button>
          </Stack>
        ) : null,
    },
  ];
}
