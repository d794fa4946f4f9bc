import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { hasToken } from '../../lib/storage';

/** /login with a stored session goes straight to the dashboard. */
export function GuestOnly({ children }: { children: ReactNode }) {
  if (hasToken()) return <Navigate to="/user/dashboard" replace />;
  return <>{children}</>;
}
