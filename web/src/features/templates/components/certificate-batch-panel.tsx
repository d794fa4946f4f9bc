import { useState } from 'react';
import { Alert, Button, Group, Paper, Progress, Select, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDownload, IconFileZip } from '@tabler/icons-react';
import { errorMessage } from '../../../lib/api-client';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { usePrintBatch, useServiceOptions, useStartPrintBatch } from '../api/print-batch';

/** Every printable certificate of a service as one zip, made by a durable job, with its progress. */
export function CertificateBatchPanel() {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const services = useServiceOptions(debounced);
  const [serviceId, setServiceId] = useState<string | null>(null);
  const [batchId, setBatchId] = useState<number | null>(null);
  const start = useStartPrintBatch();
  const batch = usePrintBatch(batchId);
  const b = batch.data;
  const percent = b && b.total > 0 ? Math.round((b.done / b.total) * 100) : 0;

  return (
    <Paper withBorder radius="md" p="md" data-testid="certificate-batch">
      <Stack gap="sm">
        <Group gap="xs">
          <IconFileZip size={20} />
          <Text fw={600}>Печать всех сертификатов услуги</Text>
        </Group>
        <Group align="flex-end" gap="sm">
          <Select
            label="Услуга"
            placeholder="Начните вводить название"
            searchable
            searchValue={search}
            onSearchChange={setSearch}
            data={(services.data ?? []).map((s) => ({ value: String(s.id), label: s.title }))}
            value={serviceId}
            onChange={setServiceId}
            nothingFoundMessage="Ничего не найдено"
            style={{ flex: 1, minWidth: 240 }}
          />
          <Button
            disabled={!serviceId}
            loading={start.isPending}
            onClick={() =>
              start.mutate(Number(serviceId), {
                onSuccess: (r) => {
                  setBatchId(r.data.id);
                  notifySuccess(r.message);
                },
                onError: (err) => notifyError(errorMessage(err)),
              })
            }
          >
            Распечатать сертификаты
          </Button>
        </Group>
        {b && (
          <Stack gap={6}>
            <Progress value={b.status === 3 ? 100 : percent} animated={b.status < 3} aria-label="Ход печати" />
            <Text size="sm" c="dimmed" data-testid="batch-progress">
              {b.status === 3 ? 'Готово' : 'Печать'}: {b.done} из {b.total}
              {b.skipped > 0 ? ` · пропущено заявок, для которых печать ещё недоступна: ${b.skipped}` : ''}
            </Text>
            {b.error && <Alert color="red">{b.error}</Alert>}
            {b.url && (
              <Button component="a" href={b.url} leftSection={<IconDownload size={16} />} variant="light" w="fit-content">
                Скачать архив
              </Button>
            )}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
