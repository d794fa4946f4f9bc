import { useState } from 'react';
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { ReviewMessages } from '@edu/domain/reviews/review';
import { errorMessage } from '../../../lib/api-client';
import { fieldErrorsOf } from '../../../lib/field-errors';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useCreateReview } from '../api/create-review';
import { focusFirstInvalid } from '../../../lib/focus-invalid';

/** 'Оставить отзыв' from the avatar menu (spec 01 §2 Review modal). */
export function ReviewModal({ opened, onClose, userId }: { opened: boolean; onClose: () => void; userId: number }) {
  return (
    <Modal opened={opened} onClose={onClose} title={ReviewMessages.title} centered size="lg">
      {opened && <ReviewForm userId={userId} onDone={onClose} />}
    </Modal>
  );
}

function ReviewForm({ userId, onDone }: { userId: number; onDone: () => void }) {
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const create = useCreateReview();

  async function submit() {
    setError(null);
    try {
      const answer = await create.mutateAsync({ text: text.trim(), user_id: userId });
      notifySuccess(answer.message || ReviewMessages.sent);
      onDone();
    } catch (e) {
      const fields = fieldErrorsOf(e);
      if (fields.text) {
        setError(fields.text);
        focusFirstInvalid();
      } else notifyError(errorMessage(e));
    }
  }

  return (
    <Stack gap="md">
      <Text size="sm">{ReviewMessages.note}</Text>
      <Textarea label="Отзыв" autosize minRows={5} maxRows={12} value={text} onChange={(e) => setText(e.currentTarget.value)} error={error} data-autofocus />
      <Group justify="flex-end">
        <Button onClick={() => void submit()} disabled={text.trim().length === 0} loading={create.isPending}>
          Сохранить
        </Button>
      </Group>
    </Stack>
  );
}
