import { api } from '../../../lib/api-client';

/** GET /api/v1/sanctum/csrf-cookie: called right before login (spec 01 §7). */
export function getCsrfCookie(): Promise<void> {
  return api.get<void>('/api/v1/sanctum/csrf-cookie', { protectedCall: false });
}
