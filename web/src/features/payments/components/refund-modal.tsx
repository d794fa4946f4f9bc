import { useEffect } from 'react';
import { Button, Group, Modal, NumberInput, Radio, Stack, Text, Textarea } from '@mantine/core';
import { useForm } from '@mantine/form';
import { formatRub } from '@edu/domain/common/format';
import {
  PaymentMessages,
  REFUND_ENTRY_ACTIONS,
  refundEntryActionLabels,
  refundFormBody,
  type Payment,
  type RefundEntryAction,
} from '@edu/domain/payments/payment';
import { submitChecked } from '../../../lib/submit-checked';
import { useRefundPayment } from '../api/refund-payment';

interface Values {
  sum: number | string;
  reason: string;
  /** Asked every time: no choice is made for the operator. */
  entry_action: RefundEntryAction | '';
  /** One per opened form: the refund's Idempotence-Key. */
  key: string;
}

/**
 * The operator's refund of an online payment: the sum (the whole rest by default, or a part) and a
 * reason the client will read. One key per opened form, so a double click continues the same refund.
 */
export function RefundModal({ payment, onClose }: { payment: Payment | null; onClose: () => void }) {
  const refund = useRefundPayment();
  const form = useForm<Values>({ initialValues: { sum: '', reason: '', entry_action: '', key: '' } });
  const opened = payment !== null;
  useEffect(() => {
    if (!payment) return;
    form.setValues({ sum: payment.refundable_sum, reason: '', entry_action: '', key: crypto.randomUUID() });
    form.clearErrors();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [payment?.id]);

  async function submit(values: Values) {
    if (!payment) return;
    const body = { sum: String(values.sum), reason: values.reason, entry_action: values.entry_action || undefined, key: values.key };
    if (await submitChecked(form.setErrors, refundFormBody, body, () => refund.mutateAsync({ id: payment.id, body }))) onClose();
  }

  return (
    <Modal opened={opened} onClose={onClose} title={PaymentMessages.refundTitle} centered>
      {payment && (
        <form onSubmit={form.onSubmit(submit)} noValidate data-testid="refund-form">
          <Stack gap="sm">
            <Text size="sm">
              {payment.is_package ? PaymentMessages.packageLabel : 'Заявка'} № {payment.entries.map((e) => e.number).join(', ') || '—'}
              {payment.entry?.user ? `, ${payment.entry.user.fio}` : ''}
            </Text>
            <Text size="sm" c="dimmed">
              Оплачено {formatRub(payment.sum)}
              {payment.refunded_sum > 0 ? `, уже возвращено ${formatRub(payment.refunded_sum)}` : ''}. Можно вернуть {formatRub(payment.refundable_sum)}.
            </Text>
            <NumberInput
              label={PaymentMessages.refundSum}
              withAsterisk
              min={0.01}
              max={payment.refundable_sum}
              decimalScale={2}
              decimalSeparator=","
              thousandSeparator=" "
              allowNegative={false}
              suffix=" ₽"
              {...form.getInputProps('sum')}
            />
            <Textarea
              label={PaymentMessages.refundReason}
              withAsterisk
              autosize
              minRows={2}
              maxLength={250}
              placeholder="Клиенту придёт письмо с этой причиной"
              {...form.getInputProps('reason')}
            />
            <Radio.Group label={PaymentMessages.refundEntryAction} withAsterisk {...form.getInputProps('entry_action')} data-testid="refund-entry-action">
              <Stack gap={6} mt={6}>
                {REFUND_ENTRY_ACTIONS.map((action) => (
                  <Radio key={action} value={action} label={refundEntryActionLabels[action]} />
                ))}
              </Stack>
            </Radio.Group>
            <Group justify="flex-end" gap="sm" mt="sm">
              <Button variant="default" onClick={onClose}>
                Отмена
              </Button>
              <Button type="submit" color="grape" loading={refund.isPending}>
                {PaymentMessages.refundAction}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
