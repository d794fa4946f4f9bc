import type { z } from 'zod';
import type { OldUser, oldUserAnswer } from '@edu/domain/auth/password-reset';
import { api } from '../../../lib/api-client';
import type { RegisterInput } from './register';

/** POST /api/old-user with the registration data: the existing account that holds this e-mail or phone. */
export async function findOldUser(attributes: RegisterInput): Promise<OldUser> {
  const answer = await api.post<z.output<typeof oldUserAnswer>>('/api/old-user', attributes, { protectedCall: false });
  return answer.data;
}
