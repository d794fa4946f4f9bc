import { z } from 'zod';
import { Messages } from '../common/messages.ts';
import { phoneField } from '../auth/register.ts';
import { pageQuery } from '../common/pagination.ts';

export const PaymentMessages = {
  confirmPaid: 'Вы уверены, что хотите отметить заявку оплаченной?',
  yes: 'ДА',
  no: 'НЕТ',
  failed: Messages.paymentFailed,
  fillAll: 'Введите все поля!',
  fillAllBanner: 'Пожалуйста, введите все поля!',
  alreadyPaid: 'Заявка уже оплачена',
  awaitingProvider: 'Ожидается ответ платёжной системы',
  packageLabel: 'Пакет услуг',
} as const;

/** Card-provider statuses with their labels and colours (spec 03 §4). */
export const providerStatusLabels: Record<string, { label: string; color: string }> = {
  succeeded: { label: 'Подтверждён', color: 'teal' },
  canceled: { label: 'Отменён', color: 'red' },
  waiting_for_capture: { label: 'Ожидает ответа', color: 'yellow' },
  pending: { label: 'В обработке', color: 'gray' },
};

/** Public /pay form (spec 03 §3): ФИО, phone, sum. */
export const publicPayBody = z.object({
  fio: z.string({ error: Messages.fieldRequired }).trim().min(1, { error: Messages.fieldRequired }).max(255, { error: Messages.maxLength(255) }),
  phone: phoneField,
  sum: z.coerce
    .number({ error: 'Введите сумму' })
    .refine((n) => Number.isFinite(n) && n >= 1, { error: 'Сумма от 1 ₽' })
    .refine((n) => n <= 1_000_000, { error: 'Сумма не больше 1 000 000 ₽' })
    .refine((n) => Math.round(n * 100) === n * 100, { error: 'Не больше двух знаков после запятой' }),
});

/** A payment for entries (/manager/payments, the Payments tabs). */
export interface Payment {
  id: number;
  uuid: string | null;
  sum: number;
  pay_type: number;
  payTypeLabel: string;
  created_at: string;
  created_at_formatted: string;
  entries: Array<{ id: number; number: string }>;
  entry: { id: number; number: string; user: { id: number; fio: string }; service: { title: string; type: string | null } } | null;
  entry_number: string | null;
  is_package: boolean;
  is_double: boolean;
  status_label: string;
  color: string;
  description: string | null;
  provider_url: string | null;
}

/** A card-provider transaction (/manager/yookassa). */
export interface CardTransaction {
  id: number;
  uuid: string | null;
  status: string;
  status_label: string;
  color: string;
  sum: number;
  order: string | null;
  buyer: string | null;
  user_id: number | null;
  comment: string | null;
  created_at_formatted: string;
  provider_url: string | null;
  test: boolean;
}

/** Filters of GET /api/payment (spec 03 §7); created_at typed with the mask 9999-99-99 99:99:99, a prefix is enough. */
export const paymentListQuery = pageQuery.extend({
  entry_number: z.string().trim().max(32).optional(),
  fio: z.string().trim().max(200).optional(),
  serviceType: z.coerce.number().int().optional(),
  serviceTitle: z.string().trim().max(200).optional(),
  sum: z.coerce.number().optional(),
  payType: z.coerce.number().int().min(1).max(4).optional(),
  uuid: z.string().trim().max(64).optional(),
  created_at: z
    .string()
    .trim()
    .transform((v) => v.split('_')[0].replace(/[-:\s]+$/, ''))
    .refine((v) => /^\d{0,4}(-\d{0,2}(-\d{0,2}( \d{0,2}(:\d{0,2}(:\d{0,2})?)?)?)?)?$/.test(v), { error: 'Дата в формате 9999-99-99 99:99:99' })
    .optional(),
  user_id: z.coerce.number().int().optional(),
});

/** Filters of GET /api/yookassa. */
export const cardTransactionListQuery = pageQuery.extend({
  status: z.enum(['pending', 'waiting_for_capture', 'succeeded', 'canceled']).optional(),
  uuid: z.string().trim().max(64).optional(),
  entry_number: z.string().trim().max(32).optional(),
  fio: z.string().trim().max(200).optional(),
  isWithoutUser: z.union([z.literal('1'), z.literal('0'), z.literal('true'), z.literal('false')]).optional(),
  serviceType: z.coerce.number().int().optional(),
  serviceTitle: z.string().trim().max(200).optional(),
  sum: z.coerce.number().optional(),
});

export const providerPaymentUrl = (uuid: string) => `https://yookassa.ru/my/payments?search=${encodeURIComponent(uuid)}`;
