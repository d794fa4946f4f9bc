import { Table, Text } from '@mantine/core';
import type { Payment } from '@edu/domain/payments/payment';
import { PaymentClient, PaymentEntry, PaymentService, PaymentSum, ProviderUuid } from './payment-cells';

interface PaymentsTableProps {
  payments: Payment[];
  /** The Клиент column (operators' list of all payments). */
  showClient?: boolean;
  compact?: boolean;
}

/** Wide screens: the payments table (spec 03 §2, Payments list). */
export function PaymentsTable({ payments, showClient = false, compact = false }: PaymentsTableProps) {
  return (
    <Table.ScrollContainer minWidth={showClient ? 960 : 720}>
      <Table verticalSpacing={compact ? 'xs' : 'sm'} highlightOnHover data-testid="payments-table">
        <Table.Thead style={{ whiteSpace: 'nowrap' }}>
          <Table.Tr>
            <Table.Th>Заявка</Table.Th>
            {showClient && <Table.Th>Клиент</Table.Th>}
            <Table.Th>Услуга</Table.Th>
            <Table.Th>Тип оплаты</Table.Th>
            <Table.Th>Сумма</Table.Th>
            <Table.Th>Дата</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {payments.map((payment) => (
            <Table.Tr key={payment.id} data-testid="payment-row">
              <Table.Td maw={240}>
                <PaymentEntry payment={payment} />
                <ProviderUuid uuid={payment.uuid} url={payment.provider_url} />
              </Table.Td>
              {showClient && (
                <Table.Td maw={220}>
                  <PaymentClient payment={payment} />
                </Table.Td>
              )}
              <Table.Td maw={340}>
                <PaymentService payment={payment} />
              </Table.Td>
              <Table.Td>
                <Text size="sm">{payment.payTypeLabel || '—'}</Text>
              </Table.Td>
              <Table.Td>
                <PaymentSum payment={payment} />
              </Table.Td>
              <Table.Td>
                <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
                  {payment.created_at_formatted}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
