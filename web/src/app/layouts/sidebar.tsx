import { Fragment } from 'react';
import { Badge, NavLink, Stack, Text, VisuallyHidden } from '@mantine/core';
import { Link } from 'react-router';
import type { CurrentUser } from '@edu/domain/users/current-user';
import { formatRub } from '@edu/domain/common/format';
import { usePendingPublications } from '../../features/statistics/api/get-pending-publications';
import { isActivePath, type NavItem } from './navigation';

/** Sidebar links: real <a> elements named by their Russian labels. */
interface SidebarProps {
  items: NavItem[];
  pathname: string;
  user: CurrentUser;
  onNavigate: () => void;
  /** Denser rows for the long manager list. */
  compact?: boolean;
}

export function Sidebar({ items, pathname, user, onNavigate, compact = false }: SidebarProps) {
  const pending = usePendingPublications(items.some((i) => i.badge === 'pendingPublications'));
  return (
    <Stack gap={2} component="nav">
      {items.map((item, index) => {
        const Icon = item.icon;
        // A group's heading before its first item.
        const heading = item.group && item.group !== items[index - 1]?.group ? item.group : null;
        const active = isActivePath(pathname, item.to);
        // The link's name is what it shows (label in name, WCAG 2.5.3): «Мои заявки к оплате 800 ₽»,
        // the words before the figure for a screen reader only.
        const badge =
          item.badge === 'leftSum' && user.left_sum > 0 ? (
            <>
              <VisuallyHidden>к оплате</VisuallyHidden>
              <Badge color="red" size="sm" variant="filled" title={`К оплате ${formatRub(user.left_sum)}`}>
                {formatRub(user.left_sum)}
              </Badge>
            </>
          ) : item.badge === 'pendingPublications' && (pending.data ?? 0) > 0 ? (
            <>
              <VisuallyHidden>ожидают проверки:</VisuallyHidden>
              <Badge color="red" size="sm" variant="filled" circle={(pending.data ?? 0) < 10} title={`Ожидают проверки: ${pending.data}`}>
                {pending.data}
              </Badge>
            </>
          ) : null;
        return (
          <Fragment key={item.to}>
            {heading && (
              <Text
                size="xs"
                fw={700}
                c="dimmed"
                tt="uppercase"
                mt={index === 0 ? 0 : 'sm'}
                mb={2}
                px="sm"
                style={{ letterSpacing: '0.04em' }}
                data-testid="nav-group"
              >
                {heading}
              </Text>
            )}
            <NavLink
              component={Link}
              to={item.to}
              label={item.label}
              leftSection={<Icon size={compact ? 18 : 20} stroke={1.6} />}
              rightSection={badge}
              active={active}
              aria-current={active ? 'page' : undefined}
              onClick={onNavigate}
              variant="light"
              py={compact ? 6 : undefined}
              styles={{ root: { borderRadius: 'var(--mantine-radius-md)' }, label: { fontSize: 'var(--mantine-font-size-sm)', fontWeight: 500 } }}
            />
          </Fragment>
        );
      })}
    </Stack>
  );
}
