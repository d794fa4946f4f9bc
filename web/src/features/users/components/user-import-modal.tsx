import { useState } from 'react';
import { Alert, Badge, Button, FileInput, Group, Modal, Progress, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { IconDownload, IconFileImport, IconFileSpreadsheet } from '@tabler/icons-react';
import { useNarrow } from '../../../lib/use-narrow';
import {
  importFieldLabels,
  importCountLabels,
  importOutcomeLabels,
  IMPORT_FIELDS,
  PANEL_IMPORT_MAX_ROWS,
  type ImportOutcome,
  type UserImportState,
} from '@edu/domain/users/user-import';
import { errorMessage, isApiError } from '../../../lib/api-client';
import { notifyError } from '../../../lib/notify';
import { downloadImportReport, useStartUserImport, useUserImport } from '../api/user-import';

const OUTCOME_COLORS: Record<ImportOutcome, string> = { new: 'green', merged: 'blue', unchanged: 'gray', refused: 'red' };
const REQUIRED = new Set(['last_name', 'first_name', 'email']);

/**
 * «Импорт из старого кабинета» on /manager/users: choose a CSV or .xlsx, see the dry run (what each
 * row would do), then «Импортировать» with a progress bar; the whole report downloads as .xlsx.
 */
export function UserImportModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const narrow = useNarrow();
  const [file, setFile] = useState<File | null>(null);
  const [importId, setImportId] = useState<string | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const start = useStartUserImport();
  const state = useUserImport(importId);
  const current = state.data ?? null;

  const run = (dryRun: boolean) => {
    if (!file) {
      setFileError('Выберите файл');
      return;
    }
    setFileError(null);
    start.mutate(
      { file, dryRun },
      {
        onSuccess: (answer) => setImportId(answer.data.id),
        onError: (error) => {
          if (isApiError(error) && error.status === 422) setFileError(error.errors?.file?.[0] ?? error.message);
          else notifyError(errorMessage(error));
        },
      },
    );
  };
  const close = () => {
    setFile(null);
    setImportId(null);
    setFileError(null);
    onClose();
  };
  const running = start.isPending || current?.status === 'running';
  const previewDone = current?.status === 'done' && current.dry_run;
  const importDone = current?.status === 'done' && !current.dry_run;

  return (
    <Modal opened={opened} onClose={close} title="Импорт из старого кабинета" size="xl" fullScreen={narrow} closeButtonProps={{ 'aria-label': 'Закрыть окно' }}>
      <Stack gap="md">
        <Text size="sm">
          CSV (UTF-8 или Windows-1251, разделитель «;» или «,») или Excel (.xlsx), до {PANEL_IMPORT_MAX_ROWS.toLocaleString('ru-RU')} строк. Первая строка —
          названия столбцов: {IMPORT_FIELDS.map((f) => importFieldLabels[f] + (REQUIRED.has(f) ? '*' : '')).join(', ')}. * — обязательные.
        </Text>
        <Text size="sm" c="dimmed">
          Человек с тем же e-mail или телефоном не создаётся второй раз: у его аккаунта заполняются только пустые поля. Хеши паролей bcrypt из старого кабинета
          подходят для входа.
        </Text>
        <FileInput
          label="Файл"
          placeholder="Выберите .csv или .xlsx"
          accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
          leftSection={<IconFileSpreadsheet size={16} />}
          value={file}
          onChange={(f) => {
            setFile(f);
            setImportId(null);
            setFileError(null);
          }}
          error={fileError}
          disabled={running}
          clearable
        />

        {current && <ImportProgress state={current} />}
        {current?.status === 'failed' && <Alert color="red">{current.error}</Alert>}
        {current?.status === 'done' && <ImportSummary state={current} />}

        <Group justify="flex-end" gap="sm">
          {current?.status === 'done' && (
            <Button
              variant="default"
              leftSection={<IconDownload size={16} />}
              onClick={() => downloadImportReport(current).catch((e: unknown) => notifyError(errorMessage(e)))}
            >
              Скачать отчёт
            </Button>
          )}
          {importDone ? (
            <Button onClick={close}>Готово</Button>
          ) : previewDone ? (
            <Button
              leftSection={<IconFileImport size={16} />}
              onClick={() => run(false)}
              loading={running}
              disabled={current.counts.new + current.counts.merged === 0}
            >
              Импортировать
            </Button>
          ) : (
            <Button onClick={() => run(true)} loading={running}>
              Проверить файл
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}

function ImportProgress({ state }: { state: UserImportState }) {
  const percent = state.total === 0 ? 100 : Math.round((state.processed / state.total) * 100);
  const verb = state.dry_run ? 'Проверено' : 'Импортировано';
  return (
    <Stack gap={4}>
      <Progress value={percent} animated={state.status === 'running'} aria-label={`${verb} строк: ${state.processed} из ${state.total}`} />
      <Text size="sm" c="dimmed">
        {verb} строк: {state.processed.toLocaleString('ru-RU')} из {state.total.toLocaleString('ru-RU')}
      </Text>
    </Stack>
  );
}

function ImportSummary({ state }: { state: UserImportState }) {
  return (
    <Stack gap="sm" data-testid="import-summary">
      <Text fw={600}>{state.dry_run ? 'Пробный прогон: в базе ничего не изменено' : 'Импорт завершён'}</Text>
      <Group gap="xs">
        {(['new', 'merged', 'unchanged', 'refused'] as const).map((o) => (
          <Badge key={o} color={OUTCOME_COLORS[o]} variant="light" size="lg">
            {importCountLabels[o]}: {state.counts[o].toLocaleString('ru-RU')}
          </Badge>
        ))}
      </Group>
      {state.unknown_columns.length > 0 && (
        <Text size="sm" c="dimmed">
          Столбцы не из списка (пропущены): {state.unknown_columns.join(', ')}
        </Text>
      )}
      <ScrollArea.Autosize mah={320} type="auto">
        <Table striped withTableBorder fz="sm" data-testid="import-rows">
          <Table.Thead>
            <Table.Tr>
              <Table.Th w={70}>Строка</Table.Th>
              <Table.Th>Человек</Table.Th>
              <Table.Th w={110}>Итог</Table.Th>
              <Table.Th>Причина / примечание</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {state.rows.map((row) => (
              <Table.Tr key={row.line}>
                <Table.Td>{row.line}</Table.Td>
                <Table.Td>
                  <Text size="sm">{row.fio || '—'}</Text>
                  <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                    {row.email}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <Badge color={OUTCOME_COLORS[row.outcome]} variant="light">
                    {importOutcomeLabels[row.outcome]}
                  </Badge>
                </Table.Td>
                <Table.Td>{row.message}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea.Autosize>
      {state.rows.length < state.total && (
        <Text size="xs" c="dimmed">
          Показаны первые {state.rows.length} строк; все — в отчёте.
        </Text>
      )}
    </Stack>
  );
}
