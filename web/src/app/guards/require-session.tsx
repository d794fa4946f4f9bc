import { useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { currentUserQuery, isValidUser } from '../../lib/current-user';
import { hasToken, rememberPath } from '../../lib/storage';
import { PageLoader } from '../../components/page-loader';
import { useEndSession } from '../session';

/**
 * Protected area: without a stored token the visitor goes to /login; the visited path is remembered
 * for after login; the current user is loaded here and a failed or id-less answer ends the session.
 */
export function RequireSession() {
  const location = useLocation();
  const path = `${location.pathname}${location.search}`;
  const token = hasToken();

  useEffect(() => {
    if (token) rememberPath(path);
  }, [token, path]);

  if (!token) {
    rememberPath(path);
    return <Navigate to="/login" replace />;
  }
  return <SessionGate />;
}

function SessionGate() {
  const endSession = useEndSession();
  const { data, isError, isPending } = useQuery(currentUserQuery);
  const invalid = isError || (!isPending && !isValidUser(data));

  useEffect(() => {
    if (invalid) endSession();
  }, [invalid, endSession]);

  if (isPending || invalid) return <PageLoader fullScreen />;
  return <Outlet />;
}
