import { Anchor, Button, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { NotificationMessages } from '@edu/domain/notifications/notification';
import { useNewNotifications } from '../api/get-new-notifications';
import { useReadAllNotifications } from '../api/read-all-notifications';
import { NotificationItem } from './notification-item';
import { useOpenNotification } from './use-open-notification';

/** Dashboard: unread count, 'Очистить', the newest unread notifications. */
export function NotificationsBlock() {
  const { data, isPending } = useNewNotifications();
  const readAll = useReadAllNotifications();
  const open = useOpenNotification();
  const count = data?.count ?? 0;

  return (
    <Paper p="lg" radius="lg" data-testid="notifications-block">
      <Group justify="space-between" mb="sm" gap="xs" wrap="nowrap">
        <Title order={3} size="h4">
          {NotificationMessages.header(count)}
        </Title>
        {count > 0 && (
          <Button size="compact-sm" variant="subtle" onClick={() => readAll.mutate()} loading={readAll.isPending}>
            {NotificationMessages.clear}
          </Button>
        )}
      </Group>
      {isPending ? (
        <Stack gap="xs">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} h={44} radius="md" />
          ))}
        </Stack>
      ) : (data?.data.length ?? 0) === 0 ? (
        <Text size="sm" c="dimmed">
          Новых уведомлений нет
        </Text>
      ) : (
        <Stack gap={2} mx={-8}>
          {data?.data.map((n) => (
            <NotificationItem key={n.id} notification={n} onOpen={open} rich />
          ))}
        </Stack>
      )}
      <Anchor component={Link} to="/user/notifications" size="sm" mt="sm" display="inline-block">
        Все уведомления
      </Anchor>
    </Paper>
  );
}
