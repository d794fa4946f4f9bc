import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import type { publicPayAnswer, publicPayBody } from '@edu/domain/payments/payment';
import { api } from '../../../lib/api-client';

/** The public form's body (spec 03 §7, Pay independently): phone as +7 (999) 999-99-99, the sum as typed in rubles; one UUID per submitted form as `key`. */
export type PayIndependentlyInput = z.input<typeof publicPayBody>;

/** The provider's payment id and the page to send the payer to. */
export type PayIndependentlyAnswer = z.output<typeof publicPayAnswer>;

/** POST /api/yookassa-entry/pay, no login: answers the provider's page to send the payer to. */
export function payIndependently(input: PayIndependentlyInput): Promise<PayIndependentlyAnswer> {
  return api.post<PayIndependentlyAnswer>('/api/yookassa-entry/pay', input, { protectedCall: false });
}

export function usePayIndependently() {
  return useMutation({ mutationFn: payIndependently });
}
