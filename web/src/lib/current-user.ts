import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CurrentUser } from '@edu/domain/users/current-user';
import { api } from './api-client';

/** The current user (GET /api/get), shared by the layouts and every feature. */
export const CURRENT_USER_KEY = ['me'] as const;

export function getCurrentUser(): Promise<CurrentUser> {
  return api.get<CurrentUser>('/api/get');
}

export const currentUserQuery = queryOptions({
  queryKey: CURRENT_USER_KEY,
  queryFn: getCurrentUser,
  staleTime: 60_000,
  retry: false,
});

/** Reads the current user; only mounted under the session gate, so it is loaded there. */
export function useCurrentUser() {
  return useQuery(currentUserQuery);
}

/** A user object is usable only when it carries an id (spec 01 §4). */
export function isValidUser(user: unknown): user is CurrentUser {
  return Boolean(user && typeof user === 'object' && (user as { id?: unknown }).id);
}
