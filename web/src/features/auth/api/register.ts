import { useMutation } from '@tanstack/react-query';
import { JSON_API_MEDIA_TYPE, type TokenResponse } from '@edu/domain/auth/register';
import { api } from '../../../lib/api-client';

export interface RegisterInput {
  last_name: string;
  first_name: string;
  middle_name: string;
  phone: string;
  email: string;
  organization: string;
  job_title: string;
  password: string;
  password_confirmation: string;
}

/** POST /register with a JSON-API body (spec 01 §7). */
export function register(attributes: RegisterInput): Promise<TokenResponse> {
  return api.post<TokenResponse>(
    '/register',
    { data: { type: 'token', attributes } },
    { contentType: JSON_API_MEDIA_TYPE, headers: { Accept: JSON_API_MEDIA_TYPE + ', application/json' }, protectedCall: false },
  );
}

export function useRegister() {
  return useMutation({ mutationFn: register });
}
