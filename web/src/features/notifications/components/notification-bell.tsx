import { ActionIcon, Box, Button, Group, Indicator, Menu, Stack, Text } from '@mantine/core';
import { IconBell } from '@tabler/icons-react';
import { Link } from 'react-router';
import { BELL_ITEMS, NotificationMessages } from '@edu/domain/notifications/notification';
import { useNewNotifications } from '../api/get-new-notifications';
import { useReadAllNotifications } from '../api/read-all-notifications';
import { NotificationItem } from './notification-item';
import { useOpenNotification } from './use-open-notification';

/** The bell: unread marker, up to 5 unread, 'Очистить' and 'Все уведомления' (spec 01 §2). */
export function NotificationBell() {
  const { data } = useNewNotifications();
  const readAll = useReadAllNotifications();
  const open = useOpenNotification();
  const count = data?.count ?? 0;
  const items = (data?.data ?? []).slice(0, BELL_ITEMS);

  // The marker wraps the menu: the menu's target (with aria-expanded) is the button itself.
  return (
    <Indicator disabled={count === 0} color="red" size={16} offset={6} label={count > 99 ? '99+' : count} data-testid="bell-indicator">
      <Menu position="bottom-end" width={340} shadow="md" withinPortal closeOnItemClick>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" size="lg" radius="xl" aria-label={count > 0 ? `Уведомления: ${count} новых` : 'Уведомления'}>
            <IconBell size={21} stroke={1.6} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown data-testid="bell-dropdown">
          <Group justify="space-between" px="sm" py={6}>
            <Text size="sm" fw={600}>
              {NotificationMessages.header(count)}
            </Text>
            {count > 0 && (
              <Button size="compact-xs" variant="subtle" onClick={() => readAll.mutate()} loading={readAll.isPending}>
                {NotificationMessages.clear}
              </Button>
            )}
          </Group>
          <Menu.Divider />
          {items.length === 0 ? (
            <Text size="sm" c="dimmed" px="sm" py="xs">
              Новых уведомлений нет
            </Text>
          ) : (
            <Box mah={360} style={{ overflowY: 'auto' }}>
              <Stack gap={2} p={4}>
                {items.map((n) => (
                  <NotificationItem key={n.id} notification={n} onOpen={open} />
                ))}
              </Stack>
            </Box>
          )}
          <Menu.Divider />
          <Menu.Item component={Link} to="/user/notifications" fw={500}>
            Все уведомления
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </Indicator>
  );
}
