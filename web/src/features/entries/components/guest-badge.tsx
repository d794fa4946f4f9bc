import { Badge } from '@mantine/core';

/** «Гость» beside a guest's name in the operators' entry lists (guests never sign in). */
export function GuestBadge({ user }: { user: { is_guest: boolean } }) {
  if (!user.is_guest) return null;
  return (
    <Badge size="xs" variant="light" color="grape" tt="none" ml={6} data-testid="guest-badge">
      Гость
    </Badge>
  );
}
