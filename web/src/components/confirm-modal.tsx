import type { ReactNode } from 'react';
import { Button, Group, Modal, Text } from '@mantine/core';

export interface ConfirmModalProps {
  opened: boolean;
  title: string;
  /** The question, e.g. 'Вы уверены, что хотите удалить?'. */
  children: ReactNode;
  onConfirm: () => void;
  onClose: () => void;
  loading?: boolean;
  /** Colour of the confirming button (red for deletions). */
  color?: string;
  confirmLabel?: string;
  cancelLabel?: string;
}

/** A yes/no question before an action that changes data (spec 02: deletions, completions). */
export function ConfirmModal({ opened, title, children, onConfirm, onClose, loading, color, confirmLabel = 'Да', cancelLabel = 'Нет' }: ConfirmModalProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered size="sm">
      {typeof children === 'string' ? <Text mb="lg">{children}</Text> : children}
      <Group justify="flex-end" gap="sm" mt="lg">
        <Button variant="default" onClick={onClose}>
          {cancelLabel}
        </Button>
        <Button color={color} loading={loading} onClick={onConfirm} data-autofocus>
          {confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}
