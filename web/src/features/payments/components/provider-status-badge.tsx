import { Badge, Group } from '@mantine/core';
import type { CardTransaction } from '@edu/domain/payments/payment';

/**
 * Status of a card-provider payment (spec 03 §4) as the server words it (a hold cancelled because the
 * entry was paid meanwhile, «Возвращён», «Частично возвращён»), and a grey 'тест' mark for the sandbox.
 */
export function ProviderStatusBadge({ transaction }: { transaction: CardTransaction }) {
  return (
    <Group gap={4} wrap="nowrap">
      <Badge color={transaction.color} variant="light" tt="none" size="sm" data-testid="provider-status">
        {transaction.status_label}
      </Badge>
      {transaction.test && (
        <Badge color="gray" variant="outline" tt="none" size="sm">
          тест
        </Badge>
      )}
    </Group>
  );
}
