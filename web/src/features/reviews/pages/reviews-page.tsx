import { useState } from 'react';
import { Avatar, Group, Stack, Text, Title } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import { ReviewAdminMessages, type PendingReview } from '@edu/domain/reviews/review';
import { DataList, type ListColumn } from '../../../components/data-list';
import { EmptyList } from '../../../components/list-states';
import { ListPagination } from '../../../components/list-pagination';
import { ConfirmAction, EditAction } from '../../../components/row-actions';
import { errorMessage } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useNarrow } from '../../../lib/use-narrow';
import { usePendingReviews, useReviewAction } from '../api/pending-reviews';
import { EditReviewModal } from '../components/edit-review-modal';
import { PublishReviewForm } from '../components/publish-review-form';

/** /manager/reviews: 'Отзывы' (spec 03 §2, §4): publish for an author; accept, edit or decline pending reviews. */
export function ReviewsPage() {
  useDocumentTitle(ReviewAdminMessages.title);
  const narrow = useNarrow();
  const [page, setPage] = useState(1);
  const reviews = usePendingReviews(page);
  const act = useReviewAction();
  const [editing, setEditing] = useState<PendingReview | null>(null);
  const short = (r: PendingReview) => `${r.user.fio}: ${r.text.length > 60 ? `${r.text.slice(0, 60)}…` : r.text}`;

  const columns: Array<ListColumn<PendingReview>> = [
    {
      key: 'author',
      label: 'Автор',
      card: 'title',
      width: 280,
      render: (r) => (
        <Group gap="sm" wrap="nowrap">
          <Avatar src={r.user.avatar_url} name={r.user.fio} color="initials" radius="xl" size="md" />
          <Stack gap={0}>
            <Text size="sm" fw={500}>
              {r.user.fio}
            </Text>
            <Text size="xs" c="dimmed">
              {r.created_at_formatted}
            </Text>
          </Stack>
        </Group>
      ),
    },
    {
      key: 'text',
      label: 'Отзыв',
      render: (r) => (
        <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {r.text}
        </Text>
      ),
    },
    {
      key: 'actions',
      label: 'Действия',
      card: 'footer',
      align: 'right',
      width: 140,
      render: (r) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <ConfirmAction
            label={short(r)}
            tooltip="Принять"
            title="Принять отзыв"
            question="Опубликовать отзыв на сайте?"
            color="green"
            icon={<IconCheck size={18} />}
            onConfirm={() => act.mutateAsync({ id: r.id, action: 'accept' })}
          />
          <EditAction label={short(r)} onClick={() => setEditing(r)} />
          <ConfirmAction
            label={short(r)}
            tooltip="Отклонить"
            title="Отклонить отзыв"
            question="Отклонить и удалить отзыв?"
            onConfirm={() => act.mutateAsync({ id: r.id, action: 'decline' })}
          />
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="lg">
      <Title order={2}>{ReviewAdminMessages.title}</Title>
      <PublishReviewForm />
      <Title order={4}>Ожидают проверки{reviews.data ? ` (${reviews.data.meta.total})` : ''}</Title>
      <DataList
        rows={reviews.data?.data}
        columns={columns}
        rowKey={(r) => r.id}
        narrow={narrow}
        loading={reviews.isPending}
        stale={reviews.isPlaceholderData}
        error={reviews.isError ? errorMessage(reviews.error) : null}
        empty={<EmptyList text={ReviewAdminMessages.empty} />}
        testId="reviews"
        itemTestId="review"
      />
      <ListPagination meta={reviews.data?.meta} onPage={setPage} />
      <EditReviewModal review={editing} onClose={() => setEditing(null)} />
    </Stack>
  );
}
