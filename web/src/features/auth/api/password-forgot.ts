import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { messageAnswer } from '@edu/domain/common/answers';
import { api } from '../../../lib/api-client';

export type PasswordForgotInput = { email: string } | { phone: string };

/** POST /password-forgot {data: {email}} or {data: {phone}}: a new password is mailed. */
export function passwordForgot(input: PasswordForgotInput): Promise<z.output<typeof messageAnswer>> {
  return api.post<z.output<typeof messageAnswer>>('/password-forgot', { data: input }, { protectedCall: false });
}

export function usePasswordForgot() {
  return useMutation({ mutationFn: passwordForgot });
}
