import { useState, type ReactNode } from 'react';
import { ActionIcon, Text, Tooltip } from '@mantine/core';
import { IconPencil, IconTrash } from '@tabler/icons-react';
import { errorMessage } from '../lib/api-client';
import { notifyError, notifySuccess } from '../lib/notify';
import { ConfirmModal } from './confirm-modal';

/** The pencil of a row: opens its edit modal. */
export function EditAction({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <Tooltip label="Редактировать">
      <ActionIcon variant="subtle" aria-label={`Редактировать ${label}`} onClick={onClick}>
        <IconPencil size={18} />
      </ActionIcon>
    </Tooltip>
  );
}

/**
 * An icon that asks 'Вы уверены, …?' and then calls the server; the answer's message (or its
 * refusal) is shown as it comes. Used for deletions (red trash) and other row actions.
 */
export function ConfirmAction({
  label,
  tooltip = 'Удалить',
  question = 'Вы уверены, что хотите удалить?',
  title = 'Удаление',
  icon = <IconTrash size={18} />,
  color = 'red',
  disabled,
  onConfirm,
}: {
  label: string;
  tooltip?: string;
  question?: string;
  title?: string;
  icon?: ReactNode;
  color?: string;
  disabled?: boolean;
  onConfirm: () => Promise<{ message: string }>;
}) {
  const [opened, setOpened] = useState(false);
  const [busy, setBusy] = useState(false);
  async function confirm() {
    setBusy(true);
    try {
      notifySuccess((await onConfirm()).message);
      setOpened(false);
    } catch (error) {
      notifyError(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }
  return (
    <>
      <Tooltip label={tooltip}>
        <ActionIcon variant="subtle" color={color} aria-label={`${tooltip}: ${label}`} disabled={disabled} onClick={() => setOpened(true)}>
          {icon}
        </ActionIcon>
      </Tooltip>
      <ConfirmModal opened={opened} title={title} onClose={() => setOpened(false)} onConfirm={confirm} loading={busy} color={color}>
        <Text size="sm">{question}</Text>
        <Text size="sm" fw={600} mt={4}>
          {label}
        </Text>
      </ConfirmModal>
    </>
  );
}
