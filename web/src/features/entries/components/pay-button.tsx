import { useState } from 'react';
import { ActionIcon, Button, Group, Modal, Text, Tooltip, type ButtonProps } from '@mantine/core';
import { IconCreditCard } from '@tabler/icons-react';
import { isOperator } from '@edu/domain/common/codes';
import { formatRub } from '@edu/domain/common/format';
import { PaymentMessages } from '@edu/domain/payments/payment';
import { useCurrentUser } from '../../../lib/current-user';
import { usePayNow } from './use-pay-now';
import { MarkPaidModal, type MarkPaidTarget } from './mark-paid-modal';

/**
 * 'Оплатить {price} ₽' for an unpaid entry; for operators, who record money that came otherwise,
 * 'Отметить оплату' with a confirmation naming the entry, the client and the sum and the pay type
 * (Банк, Офис, Другое; the entry's own preselected); a free entry is marked after 'Вы уверены, что
 * хотите отметить заявку оплаченной?' (ДА/НЕТ); users go to the payment page.
 */
export function PayButton({
  entryId,
  price,
  entry,
  iconOnly = false,
  ...rest
}: {
  entryId: number;
  price: number;
  entry?: Omit<MarkPaidTarget, 'id' | 'price'>;
  /**
   * The operators' table rows: the button with its words on wide screens (from 1408 px), an icon
   * with a tooltip below; both named with the entry's number for screen readers.
   */
  iconOnly?: boolean;
} & Omit<ButtonProps, 'children' | 'onClick'>) {
  const pay = usePayNow();
  const me = useCurrentUser();
  const [confirming, setConfirming] = useState(false);
  const operator = isOperator(me.data);
  const immediate = operator || price === 0;
  const label = operator ? PaymentMessages.markPaidButton : `Оплатить ${formatRub(price)}`;
  const named = entry?.number ? `${label}: заявка № ${entry.number}` : label;
  const open = () => (immediate ? setConfirming(true) : void pay.start(entryId));
  return (
    <>
      {iconOnly ? (
        <>
          <Button
            visibleFrom="xl"
            size="compact-sm"
            variant="light"
            color="indigo"
            leftSection={<IconCreditCard size={15} />}
            aria-label={named}
            loading={pay.pending}
            onClick={open}
            style={{ flexShrink: 0 }}
          >
            {label}
          </Button>
          <Tooltip label={label} openDelay={300}>
            <ActionIcon hiddenFrom="xl" variant="light" color="indigo" aria-label={named} loading={pay.pending} onClick={open}>
              <IconCreditCard size={18} stroke={1.6} />
            </ActionIcon>
          </Tooltip>
        </>
      ) : (
        <Button size="xs" color="indigo" leftSection={<IconCreditCard size={15} />} loading={pay.pending} onClick={open} {...rest}>
          {label}
        </Button>
      )}
      {operator && (
        <MarkPaidModal
          entry={{ id: entryId, price, number: entry?.number ?? String(entryId), user: entry?.user ?? { fio: '—' }, pay_type: entry?.pay_type }}
          opened={confirming}
          pending={pay.pending}
          onClose={() => setConfirming(false)}
          onConfirm={async (payType) => {
            await pay.start(entryId, payType);
            setConfirming(false);
          }}
        />
      )}
      <Modal opened={confirming && !operator} onClose={() => setConfirming(false)} title="Оплата заявки" centered size="sm">
        <Text mb="lg">{PaymentMessages.confirmPaid}</Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setConfirming(false)}>
            {PaymentMessages.no}
          </Button>
          <Button
            color="teal"
            loading={pay.pending}
            onClick={async () => {
              await pay.start(entryId);
              setConfirming(false);
            }}
          >
            {PaymentMessages.yes}
          </Button>
        </Group>
      </Modal>
    </>
  );
}
