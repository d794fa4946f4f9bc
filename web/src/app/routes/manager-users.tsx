import { ClientDataActions } from '../../features/personal-data/components/client-data-actions';
import { ManagerUsersPage } from '../../features/users/pages/manager-users-page';

/** /manager/users with the personal-data actions (archive on request, erasure) in the user card (issue 33). */
export function ManagerUsersRoute() {
  return <ManagerUsersPage userExtra={(userId) => <ClientDataActions userId={userId} />} />;
}
