import { Group, Paper, Stack, Text } from '@mantine/core';
import { formatRub } from '@edu/domain/common/format';
import type { CardTransaction } from '@edu/domain/payments/payment';
import { TransactionBuyer, TransactionUuid } from './card-transaction-cells';
import { Numbers } from './payment-cells';

/** Narrow screens (1199 px or less): one card per transaction. */
export function CardTransactionCards({ transactions }: { transactions: CardTransaction[] }) {
  return (
    <Stack gap="sm" data-testid="transactions-cards">
      {transactions.map((t) => (
        <Paper key={t.id} p="md" radius="md" data-testid="transaction-card">
          <Stack gap={8}>
            <Group justify="space-between" wrap="nowrap" align="flex-start" gap="sm">
              <div style={{ minWidth: 0 }}>
                <TransactionUuid transaction={t} />
              </div>
              <Stack gap={0} align="flex-end" style={{ flexShrink: 0 }}>
                <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
                  {formatRub(t.sum)}
                </Text>
                <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                  {t.created_at_formatted}
                </Text>
              </Stack>
            </Group>
            {t.order && (
              <Group gap={6} wrap="nowrap" align="baseline">
                <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
                  Заказ #:
                </Text>
                <Numbers numbers={t.order.split(', ')} />
              </Group>
            )}
            <Group gap={6} wrap="nowrap" align="baseline">
              <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
                Покупатель:
              </Text>
              <TransactionBuyer transaction={t} />
            </Group>
            {t.comment && (
              <Text size="sm" c="dimmed" lh={1.35}>
                {t.comment}
              </Text>
            )}
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}
