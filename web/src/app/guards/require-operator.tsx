import { Navigate, Outlet } from 'react-router';
import { isOperator } from '@edu/domain/common/codes';
import { useCurrentUser } from '../../lib/current-user';
import { PageLoader } from '../../components/page-loader';

/** The manager panel is for operators (role 1); others go to their dashboard. */
export function RequireOperator() {
  const { data: user } = useCurrentUser();
  if (!user) return <PageLoader fullScreen />;
  if (!isOperator(user)) return <Navigate to="/user/dashboard" replace />;
  return <Outlet />;
}
