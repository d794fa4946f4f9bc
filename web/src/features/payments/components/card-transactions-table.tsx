import { Table, Text } from '@mantine/core';
import { formatRub } from '@edu/domain/common/format';
import type { CardTransaction } from '@edu/domain/payments/payment';
import { TransactionBuyer, TransactionUuid } from './card-transaction-cells';
import { Numbers } from './payment-cells';

/** Wide screens: card-provider transactions (spec 03 §2). */
export function CardTransactionsTable({ transactions }: { transactions: CardTransaction[] }) {
  return (
    <Table.ScrollContainer minWidth={960}>
      <Table verticalSpacing="sm" highlightOnHover data-testid="transactions-table">
        <Table.Thead style={{ whiteSpace: 'nowrap' }}>
          <Table.Tr>
            <Table.Th>UUID</Table.Th>
            <Table.Th>Заказ #</Table.Th>
            <Table.Th>Покупатель</Table.Th>
            <Table.Th>Услуга/Комментарий</Table.Th>
            <Table.Th>Сумма</Table.Th>
            <Table.Th>Дата</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {transactions.map((t) => (
            <Table.Tr key={t.id} data-testid="transaction-row">
              <Table.Td maw={260}>
                <TransactionUuid transaction={t} />
              </Table.Td>
              <Table.Td maw={180}>
                {t.order ? <Numbers numbers={t.order.split(', ')} /> : <Text size="sm">—</Text>}
              </Table.Td>
              <Table.Td maw={240}>
                <TransactionBuyer transaction={t} />
              </Table.Td>
              <Table.Td maw={320}>
                <Text size="sm" lh={1.35}>
                  {t.comment ?? '—'}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
                  {formatRub(t.sum)}
                </Text>
              </Table.Td>
              <Table.Td>
                <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                  {t.created_at_formatted}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
