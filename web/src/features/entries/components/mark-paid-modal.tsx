import { useState } from 'react';
import { Button, Group, Modal, Radio, Stack, Table, Text } from '@mantine/core';
import { payTypeLabels, type PayTypeCode } from '@edu/domain/common/codes';
import { formatRub } from '@edu/domain/common/format';
import { OFFLINE_PAY_TYPES, PaymentMessages } from '@edu/domain/payments/payment';

export interface MarkPaidTarget {
  id: number;
  number: string;
  price: number;
  user: { fio: string };
  /** The entry's stored pay type: preselected when it is one of the offline ones. */
  pay_type?: number;
}

const offline = (code: number | undefined) => (code !== undefined && (OFFLINE_PAY_TYPES as readonly number[]).includes(code) ? String(code) : null);

/**
 * The operator's confirmation before marking an entry paid by hand: it names the entry, the client
 * and the sum, and asks how the money came (Банк, Офис, Другое). Never recorded as online.
 */
export function MarkPaidModal({
  entry,
  opened,
  pending,
  onClose,
  onConfirm,
}: {
  entry: MarkPaidTarget;
  opened: boolean;
  pending: boolean;
  onClose: () => void;
  onConfirm: (payType: number) => void | Promise<void>;
}) {
  const [picked, setPayType] = useState<string | null>(null);
  const payType = picked ?? offline(entry.pay_type);
  const close = () => {
    setPayType(null);
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={PaymentMessages.markPaidTitle} centered size="md">
      <Stack gap="md">
        <Text>{PaymentMessages.confirmPaid}</Text>
        <Table variant="vertical" withTableBorder layout="fixed">
          <Table.Tbody>
            <Table.Tr>
              <Table.Th w={120}>Заявка</Table.Th>
              <Table.Td>№ {entry.number}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Клиент</Table.Th>
              <Table.Td>{entry.user.fio}</Table.Td>
            </Table.Tr>
            <Table.Tr>
              <Table.Th>Сумма</Table.Th>
              <Table.Td fw={600}>{formatRub(entry.price)}</Table.Td>
            </Table.Tr>
          </Table.Tbody>
        </Table>
        <Radio.Group label="Способ оплаты" withAsterisk value={payType} onChange={setPayType}>
          <Group mt="xs" gap="lg">
            {OFFLINE_PAY_TYPES.map((code) => (
              <Radio key={code} value={String(code)} label={payTypeLabels[code as PayTypeCode]} />
            ))}
          </Group>
        </Radio.Group>
        <Group justify="flex-end">
          <Button variant="default" onClick={close}>
            {PaymentMessages.no}
          </Button>
          <Button
            color="teal"
            disabled={!payType}
            loading={pending}
            onClick={async () => {
              if (!payType) return;
              await onConfirm(Number(payType));
              setPayType(null);
            }}
          >
            {PaymentMessages.yes}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
