import { Button, Group, Modal, Text } from '@mantine/core';
import { Messages } from '@edu/domain/common/messages';

/** A link to a service that cannot be loaded: hidden, deleted or unknown (spec 01 §2). */
export function ServiceNotFoundModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title={Messages.serviceNotFound} centered>
      <Text size="sm">Услуга скрыта или удалена. Выберите другую услугу в каталоге.</Text>
      <Group justify="flex-end" mt="lg">
        <Button onClick={onClose}>К услугам</Button>
      </Group>
    </Modal>
  );
}
