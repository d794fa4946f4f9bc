import { useState } from 'react';
import { Button, Divider, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { NotificationMessages } from '@edu/domain/notifications/notification';
import { DEFAULT_PAGE_SIZE } from '@edu/domain/common/codes';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { ListPagination } from '../../../components/list-pagination';
import { useNotifications } from '../api/get-notifications';
import { useReadAllNotifications } from '../api/read-all-notifications';
import { NotificationItem } from '../components/notification-item';
import { useOpenNotification } from '../components/use-open-notification';

const UNREAD_PAGE = 100;

/** /user/notifications: 'Новых уведомлений: N', 'Очистить', unread then faded read ones (spec 01 §2). */
export function NotificationsPage() {
  useDocumentTitle('Уведомления');
  const [page, setPage] = useState(1);
  const unread = useNotifications({ checked: 0, page: 1, per_page: UNREAD_PAGE });
  const read = useNotifications({ checked: 1, page, per_page: DEFAULT_PAGE_SIZE });
  const readAll = useReadAllNotifications();
  const open = useOpenNotification();
  const count = unread.data?.meta.total ?? 0;
  const loading = unread.isPending || read.isPending;

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="center">
        <Title order={2}>{NotificationMessages.header(count)}</Title>
        <Button variant="light" onClick={() => readAll.mutate()} loading={readAll.isPending} disabled={count === 0}>
          {NotificationMessages.clear}
        </Button>
      </Group>
      <Paper p="sm" radius="lg">
        {loading ? (
          <Stack gap="sm" p="xs" aria-busy="true" data-testid="notifications-skeleton">
            {[0, 1, 2].map((i) => (
              <Group key={i} gap="sm" wrap="nowrap">
                <Skeleton h={34} w={34} circle />
                <Stack gap={6} style={{ flex: 1 }}>
                  <Skeleton h={12} w="80%" />
                  <Skeleton h={10} w="30%" />
                </Stack>
              </Group>
            ))}
          </Stack>
        ) : (
          <Stack gap={2}>
            {unread.data?.data.map((n) => (
              <NotificationItem key={n.id} notification={n} onOpen={open} rich />
            ))}
            {count > 0 && (read.data?.data.length ?? 0) > 0 && <Divider my="xs" label="Прочитанные" labelPosition="left" />}
            {read.data?.data.map((n) => (
              <NotificationItem key={n.id} notification={n} onOpen={open} rich />
            ))}
            {count === 0 && (read.data?.data.length ?? 0) === 0 && (
              <Text c="dimmed" ta="center" py="lg">
                Уведомлений пока нет
              </Text>
            )}
          </Stack>
        )}
      </Paper>
      <ListPagination meta={read.data?.meta} onPage={setPage} />
    </Stack>
  );
}
