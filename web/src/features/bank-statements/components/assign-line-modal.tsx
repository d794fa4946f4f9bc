import { useState } from 'react';
import { Alert, Button, Checkbox, Group, Modal, ScrollArea, Stack, Table, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import type { BankLine } from '@edu/domain/bank-statements/bank-statement';
import { formatRub } from '@edu/domain/common/format';
import { errorMessage, isApiError } from '../../../lib/api-client';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useNarrow } from '../../../lib/use-narrow';
import { usePayableEntries } from '../api/get-payable-entries';
import { useAssignLine } from '../api/resolve-line';

interface Pick {
  id: number;
  number: string;
  price: number;
  fio: string;
}

/**
 * «Отнести к заявкам»: the operator chooses the entries a statement line pays (the purpose's or
 * INN's candidates first, others found by number or client), sees the sum due against the sum
 * that came, and marks them paid by bank transfer.
 */
export function AssignLineModal({ line, onClose }: { line: BankLine | null; onClose: () => void }) {
  return line ? <AssignForm key={line.id} line={line} onClose={onClose} /> : null;
}

function AssignForm({ line, onClose }: { line: BankLine; onClose: () => void }) {
  const narrow = useNarrow();
  const candidates = line.candidates.filter((c) => c.status === 1);
  const [picked, setPicked] = useState<Pick[]>(candidates.length === 1 ? candidates : []);
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 350);
  const found = usePayableEntries(q, q.length > 0);
  const assign = useAssignLine();
  const [error, setError] = useState<string | null>(null);

  const toggle = (e: Pick) => setPicked((list) => (list.some((p) => p.id === e.id) ? list.filter((p) => p.id !== e.id) : [...list, e]));
  const due = picked.reduce((s, e) => s + Math.round(e.price * 100), 0) / 100;
  const options: Pick[] = [...candidates, ...(q ? (found.data?.data ?? []) : [])].filter((e, i, all) => all.findIndex((x) => x.id === e.id) === i);
  for (const p of picked) if (!options.some((o) => o.id === p.id)) options.unshift(p);

  const submit = () => {
    setError(null);
    assign.mutate(
      { id: line.id, entryIds: picked.map((p) => p.id) },
      {
        onSuccess: (answer) => {
          notifySuccess(answer.message);
          onClose();
        },
        onError: (err) => {
          if (isApiError(err) && err.status === 422) setError(err.errors?.entry_ids?.[0] ?? err.message);
          else notifyError(errorMessage(err));
        },
      },
    );
  };

  return (
    <Modal opened onClose={onClose} title="Отнести платёж к заявкам" size="lg" fullScreen={narrow} closeButtonProps={{ 'aria-label': 'Закрыть окно' }}>
      <Stack gap="md">
        <Table variant="vertical" withTableBorder layout="fixed">
          <Table.Tbody>
            <Table.Tr>
              <Table.Th w={140}>Платёж</Table.Th>
              <Table.Td>
                № {line.doc_number} от {line.doc_date}, <b>{formatRub(line.sum)}</b>
              </Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Плательщик</Table.Th>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>
                {line.payer_name}
                {line.payer_inn ? `, ИНН ${line.payer_inn}` : ''}
              </Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Назначение</Table.Th>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{line.purpose}</Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
        {line.note && <Text size="sm">{line.note}</Text>}
        <TextInput
          label="Найти заявку"
          description="Номер заявки (например, 2611-00004) или ФИО клиента"
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
        />
        <ScrollArea.Autosize mah={narrow ? undefined : 260} type="auto">
          {options.length === 0 ? (
            <Text size="sm" c="dimmed">
              {q ? 'Неоплаченных заявок не найдено' : 'Найдите заявку по номеру или ФИО клиента'}
            </Text>
          ) : (
            <Stack gap={6} data-testid="assign-options">
              {options.map((e) => (
                <Checkbox
                  key={e.id}
                  checked={picked.some((p) => p.id === e.id)}
                  onChange={() => toggle(e)}
                  label={`№ ${e.number} — ${e.fio}, ${formatRub(e.price)}`}
                />
              ))}
            </Stack>
          )}
        </ScrollArea.Autosize>
        <Text size="sm" data-testid="assign-total">
          Выбрано заявок: {picked.length}, к оплате {formatRub(due)}; пришло {formatRub(line.sum)}
        </Text>
        {picked.length > 0 && due !== line.sum && (
          <Alert color="yellow">Сумма заявок не совпадает с платежом. Отметьте их оплаченными, только если разница согласована с плательщиком.</Alert>
        )}
        {error && (
          <Alert color="red" role="alert">
            {error}
          </Alert>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Отмена
          </Button>
          <Button color="teal" disabled={picked.length === 0} loading={assign.isPending} onClick={submit}>
            Отметить оплаченными
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
