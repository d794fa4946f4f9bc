import { Anchor, Badge, Group, Progress, Stack, Text } from '@mantine/core';
import { formatDateTime } from '@edu/domain/common/format';
import { ExportStatus, type PersonalDataExport } from '@edu/domain/personal-data/personal-data';
import { API_URL } from '../../../lib/config';

const color: Record<number, string> = {
  [ExportStatus.queued]: 'gray',
  [ExportStatus.preparing]: 'blue',
  [ExportStatus.ready]: 'green',
  [ExportStatus.expired]: 'gray',
  [ExportStatus.failed]: 'red',
};

function size(bytes: number | null): string {
  if (!bytes) return '';
  return bytes < 1024 * 1024
    ? `${Math.max(1, Math.round(bytes / 1024))} КБ`
    : `${(bytes / 1024 / 1024).toLocaleString('ru-RU', { maximumFractionDigits: 1 })} МБ`;
}

/** One archive's state: queued, preparing with its progress, the download link until it expires, expired or failed. */
export function ExportState({ value }: { value: PersonalDataExport }) {
  const preparing = value.status === ExportStatus.queued || value.status === ExportStatus.preparing;
  return (
    <Stack gap={6} data-testid="personal-data-export">
      <Group gap="xs" wrap="wrap">
        <Badge color={color[value.status]} variant="light" aria-live="polite">
          {value.status_label}
        </Badge>
        <Text size="sm" c="dimmed">
          Запрошен {formatDateTime(value.created_at)}
          {value.requested_by_operator ? ' оператором по вашему заявлению' : ''}
        </Text>
      </Group>
      {preparing && (
        <Progress
          value={value.status === ExportStatus.queued ? 2 : value.progress}
          animated
          aria-label={`Подготовка архива: ${value.progress}%`}
          role="progressbar"
          aria-valuenow={value.progress}
          aria-valuemin={0}
          aria-valuemax={100}
        />
      )}
      {value.status === ExportStatus.ready && value.url && (
        <Text size="sm">
          <Anchor href={`${API_URL}${value.url}`} download fw={600}>
            Скачать архив (.zip{value.size ? `, ${size(value.size)}` : ''})
          </Anchor>
          {value.expires_at && <> — ссылка действует до {formatDateTime(value.expires_at)}</>}
        </Text>
      )}
      {value.status === ExportStatus.expired && (
        <Text size="sm" c="dimmed">
          Срок ссылки истёк, архив удалён. Запросите новый.
        </Text>
      )}
      {value.error && (
        <Text size="sm" c="red.8">
          {value.error}
        </Text>
      )}
    </Stack>
  );
}
