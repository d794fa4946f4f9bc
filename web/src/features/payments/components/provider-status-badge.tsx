import { Badge, Group } from '@mantine/core';
import { providerStatusLabels, type CardTransaction } from '@edu/domain/payments/payment';

/** Status of a card-provider payment (spec 03 §4) and a grey 'тест' mark for the sandbox. */
export function ProviderStatusBadge({ transaction }: { transaction: CardTransaction }) {
  const known = providerStatusLabels[transaction.status];
  return (
    <Group gap={4} wrap="nowrap">
      <Badge color={known?.color ?? transaction.color ?? 'gray'} variant="light" tt="none" size="sm" data-testid="provider-status">
        {known?.label ?? transaction.status_label}
      </Badge>
      {transaction.test && (
        <Badge color="gray" variant="outline" tt="none" size="sm">
          тест
        </Badge>
      )}
    </Group>
  );
}
