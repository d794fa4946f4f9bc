import type { ReactNode } from 'react';
import { ActionIcon, Box, Burger, Group, Menu, Text, Tooltip } from '@mantine/core';
import { IconGridDots } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { CurrentUser } from '@edu/domain/users/current-user';
import { Brand } from '../../components/brand';
import { NotificationBell } from '../../features/notifications/components/notification-bell';
import { SHORTCUT_LINKS } from '../../lib/config';
import { panelHome, type Panel } from './navigation';
import { UserMenu } from './user-menu';

interface TopBarProps {
  panel: Panel;
  user: CurrentUser;
  navOpened: boolean;
  onToggleNav: () => void;
  /** The search field; null in the manager panel. */
  search: ReactNode;
}

export function TopBar({ panel, user, navOpened, onToggleNav, search }: TopBarProps) {
  return (
    <Group h="100%" px={{ base: 'sm', sm: 'md' }} justify="space-between" wrap="nowrap" gap="sm">
      <Group gap="sm" wrap="nowrap">
        <Burger opened={navOpened} onClick={onToggleNav} hiddenFrom="sm" size="sm" aria-label={navOpened ? 'Закрыть меню' : 'Открыть меню'} />
        <Box component={Link} to={panelHome(panel)} style={{ color: 'inherit', textDecoration: 'none' }} aria-label="На главную">
          <Brand />
        </Box>
        {panel === 'manager' && (
          <Text size="xs" fw={600} c="indigo.7" tt="uppercase" visibleFrom="md">
            Панель оператора
          </Text>
        )}
      </Group>

      {search && (
        <Box visibleFrom="sm" style={{ flex: 1, maxWidth: 420 }}>
          {search}
        </Box>
      )}

      <Group gap={6} wrap="nowrap">
        <NotificationBell />
        <ShortcutsMenu />
        <UserMenu panel={panel} user={user} />
      </Group>
    </Group>
  );
}

/** Links to the centre's other sites. */
function ShortcutsMenu() {
  return (
    <Menu position="bottom-end" width={260} shadow="md" withinPortal>
      <Menu.Target>
        <Tooltip label="Полезные ссылки" openDelay={400}>
          <ActionIcon variant="subtle" color="gray" size="lg" radius="xl" aria-label="Полезные ссылки">
            <IconGridDots size={20} stroke={1.6} />
          </ActionIcon>
        </Tooltip>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Полезные ссылки</Menu.Label>
        {SHORTCUT_LINKS.map((link) => (
          <Menu.Item key={link.href} component="a" href={link.href} target="_blank" rel="noopener noreferrer">
            {link.label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
