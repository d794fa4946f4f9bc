import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

export type PasswordForgotInput = { email: string } | { phone: string };

/** POST /password-forgot {data: {email}} or {data: {phone}}: a new password is mailed. */
export function passwordForgot(input: PasswordForgotInput): Promise<{ message?: string }> {
  return api.post<{ message?: string }>('/password-forgot', { data: input }, { protectedCall: false });
}

export function usePasswordForgot() {
  return useMutation({ mutationFn: passwordForgot });
}
