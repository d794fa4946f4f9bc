import { useState } from 'react';
import { ActionIcon, Text, Tooltip } from '@mantine/core';
import { IconTrash } from '@tabler/icons-react';
import { ConfirmModal } from '../../../components/confirm-modal';
import { errorMessage } from '../../../lib/api-client';
import { notifyError, notifySuccess } from '../../../lib/notify';

/** A delete icon with 'Вы уверены, что хотите удалить?'; the server's refusal (in use) is shown as it comes. */
export function DeleteButton({ label, onDelete }: { label: string; onDelete: () => Promise<{ message: string }> }) {
  const [opened, setOpened] = useState(false);
  const [busy, setBusy] = useState(false);
  async function confirm() {
    setBusy(true);
    try {
      notifySuccess((await onDelete()).message);
      setOpened(false);
    } catch (error) {
      notifyError(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }
  return (
    <>
      <Tooltip label="Удалить">
        <ActionIcon variant="subtle" color="red" aria-label={`Удалить ${label}`} onClick={() => setOpened(true)}>
          <IconTrash size={18} />
        </ActionIcon>
      </Tooltip>
      <ConfirmModal opened={opened} title="Удаление" onClose={() => setOpened(false)} onConfirm={confirm} loading={busy} color="red">
        <Text size="sm">Вы уверены, что хотите удалить?</Text>
        <Text size="sm" fw={600} mt={4}>
          {label}
        </Text>
      </ConfirmModal>
    </>
  );
}
