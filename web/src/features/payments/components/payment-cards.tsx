import type { ReactNode } from 'react';
import { Group, Paper, Stack, Text } from '@mantine/core';
import type { Payment } from '@edu/domain/payments/payment';
import { PaymentClient, PaymentEntry, PaymentService, PaymentSum, ProviderUuid } from './payment-cells';

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group gap={6} wrap="nowrap" align="baseline">
      <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
        {label}:
      </Text>
      <div style={{ minWidth: 0 }}>{children}</div>
    </Group>
  );
}

/** Narrow screens (1199 px or less): one card per payment. */
export function PaymentCards({ payments, showClient = false }: { payments: Payment[]; showClient?: boolean }) {
  return (
    <Stack gap="sm" data-testid="payments-cards">
      {payments.map((payment) => (
        <Paper key={payment.id} p="md" radius="md" data-testid="payment-card">
          <Stack gap={8}>
            <Group justify="space-between" wrap="nowrap" align="flex-start" gap="sm">
              <div style={{ minWidth: 0 }}>
                <PaymentEntry payment={payment} />
                <Text size="xs" c="dimmed">
                  {payment.created_at_formatted}
                </Text>
              </div>
              <PaymentSum payment={payment} align="flex-end" />
            </Group>
            <PaymentService payment={payment} />
            {showClient && (
              <Row label="Клиент">
                <PaymentClient payment={payment} />
              </Row>
            )}
            <Row label="Тип оплаты">
              <Text size="sm">{payment.payTypeLabel || '—'}</Text>
            </Row>
            <ProviderUuid uuid={payment.uuid} url={payment.provider_url} />
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}
