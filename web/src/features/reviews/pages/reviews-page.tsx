import { useState } from 'react';
import { Avatar, Badge, Group, SegmentedControl, Select, Stack, Text, Title } from '@mantine/core';
import { IconCheck } from '@tabler/icons-react';
import {
  REVIEW_STATUS_FILTERS,
  ReviewAdminMessages,
  reviewListQuery,
  reviewStatusFilterLabels,
  type PendingReview,
  type ReviewStatusFilter,
} from '@edu/domain/reviews/review';
import { useListParams } from '../../../components/use-list-params';
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

/**
 * /manager/reviews: 'Отзывы' (spec 03 §2, §4): publish for an author; accept, edit or decline pending
 * reviews; the history (published, declined, all) by status, kept in the address bar.
 */
const statusOptions = REVIEW_STATUS_FILTERS.map((value) => ({ value, label: reviewStatusFilterLabels[value] }));

export function ReviewsPage() {
  useDocumentTitle(ReviewAdminMessages.title);
  const narrow = useNarrow();
  // The status and the page are kept in the address bar: ?status=1 is the published history.
  const params = useListParams(reviewListQuery);
  const status = (params.query.status ?? '0') as ReviewStatusFilter;
  const reviews = usePendingReviews(params.query);
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
            {r.state !== 'pending' && (
              <Group gap={4} wrap="nowrap" mt={2}>
                <Badge size="sm" variant="light" tt="none" color={r.state === 'published' ? 'teal' : 'gray'} data-testid="review-state">
                  {r.state_label}
                </Badge>
                {r.handled_at_formatted && (
                  <Text size="xs" c="dimmed">
                    {r.handled_at_formatted}
                  </Text>
                )}
              </Group>
            )}
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
      // Only a pending review can be accepted, edited or declined.
      render: (r) =>
        r.state !== 'pending' ? null : (
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
      <Group justify="space-between" align="end" gap="sm">
        <Title order={4}>
          {reviewStatusFilterLabels[status]}
          {reviews.data ? ` (${reviews.data.meta.total})` : ''}
        </Title>
        {narrow ? (
          <Select
            aria-label="Статус отзывов"
            data={statusOptions}
            value={status}
            onChange={(v) => params.set('status', !v || v === '0' ? '' : v)}
            allowDeselect={false}
            w="100%"
            data-testid="review-status"
          />
        ) : (
          <SegmentedControl
            aria-label="Статус отзывов"
            data={statusOptions}
            value={status}
            onChange={(v) => params.set('status', v === '0' ? '' : v)}
            data-testid="review-status"
          />
        )}
      </Group>
      <DataList
        rows={reviews.data?.data}
        columns={columns}
        rowKey={(r) => r.id}
        narrow={narrow}
        loading={reviews.isPending}
        stale={reviews.isPlaceholderData}
        error={reviews.isError ? errorMessage(reviews.error) : null}
        empty={<EmptyList text={status === '0' ? ReviewAdminMessages.empty : ReviewAdminMessages.emptyHistory} />}
        testId="reviews"
        itemTestId="review"
      />
      <ListPagination meta={reviews.data?.meta} onPage={params.setPage} />
      <EditReviewModal review={editing} onClose={() => setEditing(null)} />
    </Stack>
  );
}
