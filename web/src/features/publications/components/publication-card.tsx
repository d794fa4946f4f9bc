import { CoAuthorMessages } from '@edu/domain/publications/co-authors';
import type { ReactNode } from 'react';
import { ActionIcon, Group, Paper, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { formatRub } from '@edu/domain/common/format';
import { PublicationStatus } from '@edu/domain/common/codes';
import { cutText } from '../../../lib/text';
import type { Publication } from '../api/types';
import { PublicationFileLink } from './publication-file-link';
import { PublicationStatusBadge } from './status-badge';
import { plainText } from './text-stats';
import { fadedStyle } from '../../../lib/faded';

interface PublicationCardProps {
  publication: Publication;
  onOpen: () => void;
  onDelete: () => void;
  /** The pay button of an unpaid entry (composed by the app from the entries feature). */
  pay?: ReactNode;
}

/**
 * A user's publication card (spec 03 §2): status, date, price, entries with numbers and authors,
 * the manager comment when declined or rejected, a 300-character excerpt or the file. Rejected
 * cards are faded and carry the delete button.
 */
export function PublicationCard({ publication: p, onOpen, onDelete, pay }: PublicationCardProps) {
  const rejected = p.status === PublicationStatus.rejected;
  const commented = (rejected || p.status === PublicationStatus.rework) && p.manager_comment;
  const authors = p.authors.map((a) => (a.pending ? `${a.fio} (${CoAuthorMessages.pending})` : a.fio)).join(', ');
  return (
    <Paper
      withBorder
      p="md"
      radius="md"
      style={{ ...fadedStyle(rejected), cursor: 'pointer' }}
      // A click anywhere opens it; for the keyboard and screen readers the title is the button (a
      // card with buttons inside must not be a button itself).
      onClick={onOpen}
      data-testid="publication-card"
    >
      <Stack gap={8}>
        <Group justify="space-between" wrap="nowrap" align="flex-start" gap="xs">
          <Group gap="xs">
            <PublicationStatusBadge status={p.status} label={p.statusLabel} color={p.statusColor} />
            <Text size="sm" c="dimmed">
              {p.created_at_formatted}
            </Text>
          </Group>
          <Group gap="xs" wrap="nowrap">
            {p.price ? (
              <Text fw={700} style={{ whiteSpace: 'nowrap' }}>
                {formatRub(p.price)}
              </Text>
            ) : null}
            {rejected && (
              <Tooltip label="Удалить">
                <ActionIcon
                  color="red"
                  variant="subtle"
                  aria-label="Удалить публикацию"
                  onClick={(e) => {
                    e.stopPropagation();
                    onDelete();
                  }}
                >
                  <IconTrash size={18} />
                </ActionIcon>
              </Tooltip>
            )}
          </Group>
        </Group>
        <UnstyledButton
          onClick={(e) => {
            e.stopPropagation();
            onOpen();
          }}
        >
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {p.title}
          </Text>
        </UnstyledButton>
        {p.service && (
          <Text size="sm" c="dimmed">
            {p.service.title}
          </Text>
        )}
        {p.entries.map((e) => (
          <Group key={e.id} gap="xs" wrap="wrap">
            <Text size="sm">Заявка № {e.number}</Text>
            {authors && (
              <Text size="sm" c="dimmed">
                Авторы: {authors}
              </Text>
            )}
          </Group>
        ))}
        {p.entries.length === 0 && authors && (
          <Text size="sm" c="dimmed">
            Авторы: {authors}
          </Text>
        )}
        {commented && (
          <Paper bg={rejected ? 'red.0' : 'orange.0'} p="xs" radius="sm" data-testid="publication-comment">
            <Text size="sm">Комментарий менеджера: {p.manager_comment}</Text>
          </Paper>
        )}
        {p.text ? (
          <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {cutText(plainText(p.text).trim(), 300)}
          </Text>
        ) : p.file ? (
          <PublicationFileLink file={p.file} />
        ) : null}
        {pay && (
          <Group justify="flex-end" onClick={(e) => e.stopPropagation()}>
            {pay}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
