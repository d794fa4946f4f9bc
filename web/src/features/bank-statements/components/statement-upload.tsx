import { useState } from 'react';
import { Alert, Badge, Button, FileInput, Group, Paper, Stack, Text } from '@mantine/core';
import { IconFileUpload } from '@tabler/icons-react';
import { BankStatementMessages, type ImportSummary } from '@edu/domain/bank-statements/bank-statement';
import { errorMessage, isApiError } from '../../../lib/api-client';
import { notifyError } from '../../../lib/notify';
import { useUploadStatement } from '../api/upload-statement';

/** The upload of a 1C statement and the summary of what it did. */
export function StatementUpload() {
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [summary, setSummary] = useState<ImportSummary | null>(null);
  const upload = useUploadStatement();

  const send = () => {
    if (!file) {
      setFileError(BankStatementMessages.fileRequired);
      return;
    }
    setFileError(null);
    upload.mutate(file, {
      onSuccess: (answer) => {
        setSummary(answer.data);
        setFile(null);
      },
      onError: (error) => {
        setSummary(null);
        if (isApiError(error) && error.status === 422) setFileError(error.errors?.file?.[0] ?? error.message);
        else notifyError(errorMessage(error));
      },
    });
  };

  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="sm">
        <Text size="sm">
          Выгрузите выписку из интернет-банка в формате 1С (файл kl_to_1c.txt, Windows-1251 или UTF-8). Входящие платежи на расчётный счёт центра сверяются с
          заявками по номеру счёта или заявки в назначении платежа, затем по ИНН плательщика и сумме. Точные совпадения отмечаются оплаченными «по безналичному
          расчёту», остальные попадают в список «Разобрать вручную». Повторная загрузка той же выписки ничего не меняет.
        </Text>
        <Group align="flex-start" gap="sm" wrap="wrap">
          <FileInput
            label="Файл выписки"
            placeholder="Выберите файл .txt"
            accept=".txt,text/plain"
            leftSection={<IconFileUpload size={16} />}
            value={file}
            onChange={(f) => {
              setFile(f);
              setFileError(null);
            }}
            error={fileError}
            disabled={upload.isPending}
            clearable
            style={{ flex: '1 1 260px', minWidth: 0 }}
          />
          <Button mt={{ base: 0, xs: 25 }} onClick={send} loading={upload.isPending}>
            Загрузить выписку
          </Button>
        </Group>
        {summary && <ImportResult summary={summary} />}
      </Stack>
    </Paper>
  );
}

function ImportResult({ summary }: { summary: ImportSummary }) {
  return (
    <Alert color={summary.manual > 0 ? 'yellow' : 'teal'} title={summary.message} data-testid="statement-summary">
      <Stack gap={6}>
        <Text size="sm">
          Файл «{summary.file_name}», платёжных документов: {summary.documents}
        </Text>
        <Group gap="xs">
          <Badge color="teal" variant="light">
            Оплачено: {summary.paid}
          </Badge>
          <Badge color="yellow" variant="light">
            Разобрать вручную: {summary.manual}
          </Badge>
          <Badge color="gray" variant="light">
            Загружено раньше: {summary.already}
          </Badge>
          <Badge color="gray" variant="light">
            Не входящие: {summary.not_incoming}
          </Badge>
          {summary.unreadable > 0 && (
            <Badge color="red" variant="light">
              Без суммы: {summary.unreadable}
            </Badge>
          )}
        </Group>
        {summary.paid_entries.length > 0 && <Text size="sm">Оплачены заявки № {summary.paid_entries.join(', ')}</Text>}
      </Stack>
    </Alert>
  );
}
