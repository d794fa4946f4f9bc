import { Anchor, Stack, Text } from '@mantine/core';
import { Link } from 'react-router';
import type { CardTransaction } from '@edu/domain/payments/payment';
import { ProviderUuid } from './payment-cells';
import { ProviderStatusBadge } from './provider-status-badge';

/** UUID with the status badge. */
export function TransactionUuid({ transaction }: { transaction: CardTransaction }) {
  return (
    <Stack gap={4} align="flex-start">
      <ProviderStatusBadge transaction={transaction} />
      {transaction.uuid ? (
        <ProviderUuid uuid={transaction.uuid} url={transaction.provider_url} />
      ) : (
        <Text size="xs" c="dimmed">
          —
        </Text>
      )}
    </Stack>
  );
}

/** Покупатель: a user of the cabinet links to their card; a visitor of the public form shows name and phone. */
export function TransactionBuyer({ transaction }: { transaction: CardTransaction }) {
  if (!transaction.buyer) return <Text size="sm">—</Text>;
  if (transaction.user_id) {
    return (
      <Anchor component={Link} to={`/manager/users?id=${transaction.user_id}`} size="sm">
        {transaction.buyer}
      </Anchor>
    );
  }
  return <Text size="sm">{transaction.buyer}</Text>;
}
