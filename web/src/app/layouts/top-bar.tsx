import type { ReactNode } from 'react';
import { ActionIcon, Box, Burger, Group, Menu, Text, Tooltip } from '@mantine/core';
import { IconGridDots } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { CurrentUser } from '@edu/domain/users/current-user';
import { Brand } from '../../components/brand';
import { NotificationBell } from '../../features/notifications/components/notification-bell';
import { isOperator } from '@edu/domain/common/codes';
import { SiteLinkMessages } from '@edu/domain/settings/site-links';
import { SITE_LINKS_SETTINGS_PATH, useSiteLinks } from '../../lib/site-links';
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
        <Box component={Link} to={panelHome(panel)} style={{ color: 'inherit', textDecoration: 'none' }} aria-label="Личный кабинет — на главную">
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
        <ShortcutsMenu operator={isOperator(user)} />
        <UserMenu panel={panel} user={user} />
      </Group>
    </Group>
  );
}

/**
 * Links to the centre's other sites, as operators set them. Until they are set, operators see where
 * to set them and others see no menu.
 */
function ShortcutsMenu({ operator }: { operator: boolean }) {
  const links = useSiteLinks();
  const shortcuts = links?.shortcuts ?? [];
  if (shortcuts.length === 0 && !operator) return null;
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
        {shortcuts.map((link, i) => (
          <Menu.Item key={`${i}-${link.href}`} component="a" href={link.href} target="_blank" rel="noopener noreferrer">
            {link.label}
          </Menu.Item>
        ))}
        {shortcuts.length === 0 && (
          <Text size="sm" c="dimmed" px="sm" py={6} data-testid="shortcuts-empty">
            {SiteLinkMessages.emptyShortcuts}
          </Text>
        )}
        {operator && (
          <>
            <Menu.Divider />
            <Menu.Item component={Link} to={SITE_LINKS_SETTINGS_PATH}>
              Настроить ссылки
            </Menu.Item>
          </>
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
