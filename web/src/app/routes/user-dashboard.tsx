import { DashboardPage, type DashboardSlots } from '../../features/dashboard/pages/dashboard-page';
import { UnpaidEntriesBlock } from '../../features/entries/components/unpaid-entries-block';
import { NotificationsBlock } from '../../features/notifications/components/notifications-block';
import { PinnedPackage } from '../../features/service-packages/components/pinned-package';
import { AvatarUpload } from '../../features/users/components/avatar-upload';
import { renderPackagePay } from './package-pay';

const slots: DashboardSlots = {
  avatar: (user) => <AvatarUpload user={user} size={96} />,
  notifications: <NotificationsBlock />,
  // Unpaid entries first; otherwise the pinned package of the first profile (or of none).
  payments: (user) =>
    user.entries_unpaid_num > 0 ? (
      <UnpaidEntriesBlock userId={user.id} />
    ) : (
      <PinnedPackage profileId={user.profiles[0]?.id ?? null} renderPayStep={renderPackagePay} />
    ),
};

/** /user/dashboard composed from the dashboard, users, notifications, entries and packages features. */
export function UserDashboardRoute() {
  return <DashboardPage slots={slots} />;
}
