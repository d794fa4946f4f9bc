import { errorMessage } from '../lib/api-client';
import { notifyError, notifySuccess } from '../lib/notify';
import { ConfirmModal } from './confirm-modal';

export interface ConfirmDeleteModalProps {
  /** The row to delete; null keeps the modal closed. */
  target: { id: number } | null;
  title: string;
  /** The question of the spec, e.g. 'Вы уверены, что хотите удалить?'. */
  question: string;
  /** Deletes the row and answers with the server's message. */
  remove: (id: number) => Promise<{ message: string }>;
  loading?: boolean;
  onClose: () => void;
}

/** 'Нет' / 'Да' before deleting a list row; the server's answer (or its error) is shown as a notice. */
export function ConfirmDeleteModal({ target, title, question, remove, loading, onClose }: ConfirmDeleteModalProps) {
  return (
    <ConfirmModal
      opened={target !== null}
      title={title}
      onClose={onClose}
      loading={loading}
      color="red"
      onConfirm={async () => {
        if (!target) return;
        try {
          notifySuccess((await remove(target.id)).message);
        } catch (error) {
          notifyError(errorMessage(error));
        }
        onClose();
      }}
    >
      {question}
    </ConfirmModal>
  );
}
