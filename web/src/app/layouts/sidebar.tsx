import { Badge, NavLink, Stack } from '@mantine/core';
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
      {items.map((item) => {
        const Icon = item.icon;
        const active = isActivePath(pathname, item.to);
        const badgeId = `nav-badge-${item.to.replaceAll('/', '-')}`;
        const badge =
          item.badge === 'leftSum' && user.left_sum > 0 ? (
            <Badge id={badgeId} color="red" size="sm" variant="filled" title={`К оплате ${formatRub(user.left_sum)}`}>
              {formatRub(user.left_sum)}
            </Badge>
          ) : item.badge === 'pendingPublications' && (pending.data ?? 0) > 0 ? (
            <Badge id={badgeId} color="red" size="sm" variant="filled" circle={(pending.data ?? 0) < 10} title={`Ожидают проверки: ${pending.data}`}>
              {pending.data}
            </Badge>
          ) : null;
        return (
          <NavLink
            key={item.to}
            component={Link}
            to={item.to}
            label={item.label}
            leftSection={<Icon size={compact ? 18 : 20} stroke={1.6} />}
            rightSection={badge}
            active={active}
            aria-current={active ? 'page' : undefined}
            // The name stays the plain label (e.g. «Мои заявки»); the badge is its description.
            aria-label={item.label}
            aria-describedby={badge ? badgeId : undefined}
            onClick={onNavigate}
            variant="light"
            py={compact ? 6 : undefined}
            styles={{ root: { borderRadius: 'var(--mantine-radius-md)' }, label: { fontSize: 'var(--mantine-font-size-sm)', fontWeight: 500 } }}
          />
        );
      })}
    </Stack>
  );
}
