import { Button, Group, Modal, Text } from '@mantine/core';
import type { Entry } from '@edu/domain/entries/entry';
import { errorMessage } from '../../../lib/api-client';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useDeleteEntry } from '../api/delete-entry';

/** Confirms the removal of an unpaid entry; the current user is refreshed afterwards. */
export function RemoveEntryModal({ entry, onClose, isOperator = false }: { entry: Entry | null; onClose: () => void; isOperator?: boolean }) {
  const remove = useDeleteEntry();
  // A client's removal of an unpaid package entry takes the whole package (the server does it).
  const whole = Boolean(entry?.package_enrollment && !entry.package_enrollment.broken && !isOperator);

  async function confirm() {
    if (!entry) return;
    try {
      const answer = await remove.mutateAsync(entry.id);
      notifySuccess(answer.message);
      onClose();
    } catch (error) {
      notifyError(errorMessage(error));
    }
  }

  return (
    <Modal opened={entry !== null} onClose={onClose} title={whole ? 'Удалить пакет услуг?' : 'Удалить заявку?'} size="sm" centered>
      {entry &&
        (whole ? (
          <Text size="sm">Пакет услуг «{entry.package_enrollment?.title}» покупается и удаляется целиком: будут удалены все его заявки.</Text>
        ) : (
          <Text size="sm">
            Заявка № {entry.number} на «{entry.service.title}» будет удалена.
          </Text>
        ))}
      <Group justify="flex-end" gap="sm" mt="lg">
        <Button variant="default" onClick={onClose}>
          Отмена
        </Button>
        <Button color="red" onClick={() => void confirm()} loading={remove.isPending}>
          Удалить
        </Button>
      </Group>
    </Modal>
  );
}
