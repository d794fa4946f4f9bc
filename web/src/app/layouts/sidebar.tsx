import { Badge, NavLink, Stack } from '@mantine/core';
import { Link } from 'react-router';
import type { CurrentUser } from '@edu/domain/users/current-user';
import { formatRub } from '@edu/domain/common/format';
import { isActivePath, type NavItem } from './navigation';

/** Sidebar links: real <a> elements named by their Russian labels. */
export function Sidebar({ items, pathname, user, onNavigate }: { items: NavItem[]; pathname: string; user: CurrentUser; onNavigate: () => void }) {
  return (
    <Stack gap={2} component="nav">
      {items.map((item) => {
        const Icon = item.icon;
        const active = isActivePath(pathname, item.to);
        const badge =
          item.badge === 'leftSum' && user.left_sum > 0 ? (
            <Badge color="red" size="sm" variant="filled" aria-label={`К оплате ${formatRub(user.left_sum)}`}>
              {formatRub(user.left_sum)}
            </Badge>
          ) : null;
        return (
          <NavLink
            key={item.to}
            component={Link}
            to={item.to}
            label={item.label}
            leftSection={<Icon size={20} stroke={1.6} />}
            rightSection={badge}
            active={active}
            aria-current={active ? 'page' : undefined}
            onClick={onNavigate}
            variant="light"
            styles={{ root: { borderRadius: 'var(--mantine-radius-md)' }, label: { fontSize: 'var(--mantine-font-size-sm)', fontWeight: 500 } }}
          />
        );
      })}
    </Stack>
  );
}
