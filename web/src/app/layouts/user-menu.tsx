import { Avatar, Badge, Box, Group, Menu, Stack, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconBell, IconChevronDown, IconFileDescription, IconLogout, IconMessageStar, IconSettings, IconSwitchHorizontal } from '@tabler/icons-react';
import { Link } from 'react-router';
import { isOperator } from '@edu/domain/common/codes';
import { Messages } from '@edu/domain/common/messages';
import type { CurrentUser } from '@edu/domain/users/current-user';
import { isApiError } from '../../lib/api-client';
import { notifyError } from '../../lib/notify';
import { useLogout } from '../../features/auth/api/logout';
import { useUnreadCount } from '../../features/notifications/api/get-new-notifications';
import { ReviewModal } from '../../features/reviews/components/review-modal';
import { useEndSession } from '../session';
import { panelHome, type Panel } from './navigation';

/** Avatar menu (spec 01 §2): name and role, panel switch, notifications, contract data, settings, review, logout. */
export function UserMenu({ panel, user }: { panel: Panel; user: CurrentUser }) {
  const logout = useLogout();
  const endSession = useEndSession();
  const [reviewOpened, review] = useDisclosure(false);
  const unread = useUnreadCount();
  const operator = isOperator(user);

  async function signOut() {
    try {
      await logout.mutateAsync();
    } catch (error) {
      // An expired token is already signed out on the server.
      if (!(isApiError(error) && error.status === 401)) {
        notifyError(Messages.oops);
        return;
      }
    }
    endSession({ forgetReturnPath: true });
  }

  return (
    <>
      <Menu position="bottom-end" width={260} shadow="md" withinPortal>
        <Menu.Target>
          <UnstyledButton aria-label={`Меню пользователя ${user.initials}`} style={{ borderRadius: 999 }}>
            <Group gap={8} wrap="nowrap">
              <Avatar src={user.avatar_url ?? undefined} color="indigo" radius="xl" size={36} alt={user.fio}>
                {user.initials}
              </Avatar>
              <Box visibleFrom="sm" lh={0}>
                <IconChevronDown size={14} stroke={1.6} />
              </Box>
            </Group>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          <Stack gap={2} px="sm" py={8}>
            <Text fw={600} size="sm" lh={1.3} data-testid="user-fio">
              {user.fio}
            </Text>
            <Text size="xs" c="dimmed">
              {user.role_label}
            </Text>
          </Stack>
          <Menu.Divider />
          {operator &&
            (panel === 'user' ? (
              <Menu.Item component={Link} to={panelHome('manager')} leftSection={<IconSwitchHorizontal size={16} />}>
                Панель оператора
              </Menu.Item>
            ) : (
              <Menu.Item component={Link} to="/user/dashboard" leftSection={<IconSwitchHorizontal size={16} />}>
                Панель пользователя
              </Menu.Item>
            ))}
          <Menu.Item component={Link} to="/user/notifications" leftSection={<IconBell size={16} />} rightSection={<UnreadBadge count={unread} />}>
            Уведомления
          </Menu.Item>
          {user.is_documents_upload_allowed && (
            <Menu.Item component={Link} to="/user/contract" leftSection={<IconFileDescription size={16} />}>
              Данные для договора
            </Menu.Item>
          )}
          <Menu.Item component={Link} to="/user/settings" leftSection={<IconSettings size={16} />}>
            Настройки
          </Menu.Item>
          <Menu.Item onClick={review.open} leftSection={<IconMessageStar size={16} />}>
            Оставить отзыв
          </Menu.Item>
          <Menu.Divider />
          <Menu.Item color="red" onClick={signOut} leftSection={<IconLogout size={16} />} disabled={logout.isPending}>
            Выйти
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>

      <ReviewModal opened={reviewOpened} onClose={review.close} userId={user.id} />
    </>
  );
}

function UnreadBadge({ count }: { count: number }) {
  if (count <= 0) return null;
  return (
    <Badge size="xs" color="red" variant="filled" circle>
      {count}
    </Badge>
  );
}
