import { useState } from 'react';
import { Button, Group, Paper, Select, Stack, Textarea, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSend } from '@tabler/icons-react';
import { Messages } from '@edu/domain/common/messages';
import { ReviewAdminMessages, reviewBody } from '@edu/domain/reviews/review';
import { errorMessage } from '../../../lib/api-client';
import { fieldErrorsOf } from '../../../lib/field-errors';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useAuthorSearch, usePublishReview, type AuthorOption } from '../api/pending-reviews';
import { focusFirstInvalid } from '../../../lib/focus-invalid';

/** The top of 'Отзывы': author picker (search by fio), text, 'Опубликовать' (spec 03 §2). */
export function PublishReviewForm() {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const [author, setAuthor] = useState<AuthorOption | null>(null);
  const [text, setText] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const found = useAuthorSearch(debounced);
  const publish = usePublishReview();

  const options = [...(author ? [author] : []), ...(found.data ?? []).filter((u) => u.id !== author?.id)].map((u) => ({
    value: String(u.id),
    label: u.email ? `${u.fio} · ${u.email}` : u.fio,
  }));

  async function submit() {
    const body = { text: text.trim(), user_id: author?.id };
    const local: Record<string, string> = {};
    if (!reviewBody.shape.text.safeParse(body.text).success) local.text = Messages.fieldRequired;
    if (!author) local.user_id = ReviewAdminMessages.authorRequired;
    setErrors(local);
    if (Object.keys(local).length) {
      focusFirstInvalid();
      notifyError(Messages.required);
      return;
    }
    try {
      notifySuccess((await publish.mutateAsync(body)).message);
      setText('');
      setAuthor(null);
      setSearch('');
    } catch (e) {
      setErrors(fieldErrorsOf(e));
      focusFirstInvalid();
      notifyError(errorMessage(e));
    }
  }

  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap="sm">
        <Title order={4}>Новый отзыв</Title>
        <Select
          label="Автор"
          placeholder="Начните вводить ФИО"
          withAsterisk
          searchable
          clearable
          data={options}
          value={author ? String(author.id) : null}
          searchValue={search}
          onSearchChange={setSearch}
          onChange={(value) => {
            setAuthor(value ? ((found.data ?? []).find((u) => String(u.id) === value) ?? author) : null);
            setErrors(({ user_id: _, ...rest }) => rest);
          }}
          filter={({ options: all }) => all}
          nothingFoundMessage={debounced.trim() ? (found.isFetching ? 'Поиск…' : Messages.nothingFound) : 'Введите ФИО'}
          error={errors.user_id}
          data-testid="review-author"
        />
        <Textarea
          label="Текст отзыва"
          withAsterisk
          autosize
          minRows={3}
          maxRows={10}
          value={text}
          onChange={(e) => {
            setText(e.currentTarget.value);
            setErrors(({ text: _, ...rest }) => rest);
          }}
          error={errors.text}
        />
        <Group justify="flex-end">
          <Button leftSection={<IconSend size={16} />} onClick={submit} loading={publish.isPending}>
            {ReviewAdminMessages.publish}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
