import { ActionIcon, Anchor, Badge, Button, FileButton, Group, Input, Paper, Stack, Text, Tooltip } from '@mantine/core';
import { IconFile, IconPaperclip, IconTrash, IconX } from '@tabler/icons-react';
import { DocumentMessages, documentKindLabels, type DocumentKind, type FileRecord } from '@edu/domain/documents/documents';
import { UPLOAD_MAX_BYTES } from '@edu/domain/users/profile';
import { errorMessage } from '../../../lib/api-client';
import { notifyError } from '../../../lib/notify';
import { openPrivateFile } from '../../../lib/private-file';

const ACCEPT = '.pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png';

/** An early check in the browser (the server checks the content again): extension and size. */
export function fileProblem(file: File): string | null {
  if (!/\.(pdf|jpe?g|png)$/i.test(file.name)) return DocumentMessages.fileType;
  if (file.size > UPLOAD_MAX_BYTES) return DocumentMessages.fileTooLarge;
  return null;
}

export function SavedFileLink({ file }: { file: FileRecord }) {
  return (
    <Anchor
      component="button"
      type="button"
      size="sm"
      onClick={() => openPrivateFile(file.url).catch((e: unknown) => notifyError(errorMessage(e)))}
      style={{ overflowWrap: 'anywhere', textAlign: 'left' }}
    >
      {file.name}
    </Anchor>
  );
}

export interface DocumentKindFieldProps {
  kind: DocumentKind;
  saved: FileRecord[];
  pending: File[];
  required?: boolean;
  readOnly?: boolean;
  error?: string;
  onAdd?: (files: File[]) => void;
  onRemovePending?: (index: number) => void;
  onDelete?: (file: FileRecord) => void;
}

/** One kind of document: its saved files (open, delete), files chosen but not yet saved, and the add button. */
export function DocumentKindField({ kind, saved, pending, required, readOnly, error, onAdd, onRemovePending, onDelete }: DocumentKindFieldProps) {
  function add(files: File[]) {
    const good: File[] = [];
    for (const f of files) {
      const problem = fileProblem(f);
      if (problem) notifyError(`${f.name}: ${problem}`);
      else good.push(f);
    }
    if (good.length) onAdd?.(good);
  }
  const empty = saved.length === 0 && pending.length === 0;
  return (
    <Paper withBorder p="sm" radius="md" data-testid={`doc-${kind}`} data-field style={error ? { borderColor: 'var(--mantine-color-error)' } : undefined}>
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Input.Label required={required} style={{ lineHeight: 1.3 }}>
            {documentKindLabels[kind]}
          </Input.Label>
          {!readOnly && (
            <FileButton onChange={add} accept={ACCEPT} multiple>
              {(props) => (
                <Button
                  {...props}
                  size="compact-sm"
                  variant="light"
                  style={{ flex: 'none' }}
                  leftSection={<IconPaperclip size={14} />}
                  aria-label={`Добавить: ${documentKindLabels[kind]}`}
                >
                  Добавить
                </Button>
              )}
            </FileButton>
          )}
        </Group>
        {empty && (
          <Text size="sm" c="dimmed">
            Файлы не загружены
          </Text>
        )}
        {saved.map((f) => (
          <Group key={f.id} gap={6} wrap="nowrap" justify="space-between">
            <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
              <IconFile size={16} style={{ flex: 'none' }} />
              <SavedFileLink file={f} />
              <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                {f.date_formatted}
              </Text>
            </Group>
            {!readOnly && onDelete && (
              <Tooltip label="Удалить файл">
                <ActionIcon variant="subtle" color="red" onClick={() => onDelete(f)} aria-label={`Удалить ${f.name}`}>
                  <IconTrash size={16} />
                </ActionIcon>
              </Tooltip>
            )}
          </Group>
        ))}
        {pending.map((f, i) => (
          <Group key={`${f.name}-${i}`} gap={6} wrap="nowrap" justify="space-between">
            <Group gap={6} wrap="nowrap" style={{ minWidth: 0 }}>
              <IconFile size={16} style={{ flex: 'none' }} />
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {f.name}
              </Text>
              <Badge size="xs" color="orange" variant="light" style={{ flex: 'none' }}>
                не сохранён
              </Badge>
            </Group>
            <ActionIcon variant="subtle" color="gray" onClick={() => onRemovePending?.(i)} aria-label={`Убрать ${f.name}`}>
              <IconX size={16} />
            </ActionIcon>
          </Group>
        ))}
        {error && (
          <Text size="xs" c="red" data-field-error>
            {error}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
