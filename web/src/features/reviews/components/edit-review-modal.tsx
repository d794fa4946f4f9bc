import { useState } from 'react';
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { Messages } from '@edu/domain/common/messages';
import { type PendingReview } from '@edu/domain/reviews/review';
import { errorMessage } from '../../../lib/api-client';
import { fieldErrorsOf } from '../../../lib/field-errors';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useReviewAction } from '../api/pending-reviews';
import { focusFirstInvalid } from '../../../lib/focus-invalid';

/** Correcting the text of a pending review. */
export function EditReviewModal({ review, onClose }: { review: PendingReview | null; onClose: () => void }) {
  return (
    <Modal opened={review !== null} onClose={onClose} title="Редактирование отзыва" centered size="lg">
      {review && <EditReviewForm key={review.id} review={review} onClose={onClose} />}
    </Modal>
  );
}

function EditReviewForm({ review, onClose }: { review: PendingReview; onClose: () => void }) {
  const act = useReviewAction();
  const [text, setText] = useState(review.text);
  const [error, setError] = useState<string | undefined>();
  async function save() {
    if (!text.trim()) {
      setError(Messages.fieldRequired);
      return;
    }
    try {
      notifySuccess((await act.mutateAsync({ id: review.id, action: 'edit', text: text.trim() })).message);
      onClose();
    } catch (e) {
      setError(fieldErrorsOf(e).text);
      focusFirstInvalid();
      notifyError(errorMessage(e));
    }
  }
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {review.user.fio}, {review.created_at_formatted}
      </Text>
      <Textarea
        label="Текст отзыва"
        withAsterisk
        autosize
        minRows={4}
        maxRows={12}
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        error={error}
        data-autofocus
      />
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose}>
          Отмена
        </Button>
        <Button onClick={save} loading={act.isPending}>
          Сохранить
        </Button>
      </Group>
    </Stack>
  );
}
