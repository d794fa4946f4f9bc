import { useMutation } from '@tanstack/react-query';
import type { LoginBody } from '@edu/domain/auth/login';
import type { TokenResponse } from '@edu/domain/auth/register';
import { api } from '../../../lib/api-client';
import { getCsrfCookie } from './get-csrf-cookie';

export interface LoginInput {
  email: string;
  password: string;
  remember: boolean;
}

/** POST /login after the csrf cookie; `email` carries an e-mail or a phone. */
export async function login(input: LoginInput): Promise<TokenResponse> {
  // The cookie only matters to cookie-based setups; a failure here must not block a token login.
  await getCsrfCookie().catch(() => undefined);
  const body: LoginBody = { email: input.email.trim(), password: input.password, remember: input.remember };
  return api.post<TokenResponse>('/login', body, { protectedCall: false });
}

export function useLogin() {
  return useMutation({ mutationFn: login });
}
