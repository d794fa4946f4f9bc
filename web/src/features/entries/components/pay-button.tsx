import { Button, type ButtonProps } from '@mantine/core';
import { IconCreditCard } from '@tabler/icons-react';
import { formatRub } from '@edu/domain/common/format';
import { usePayNow } from './use-pay-now';

/** 'Оплатить {price} ₽' for an unpaid entry. */
export function PayButton({ entryId, price, ...rest }: { entryId: number; price: number } & Omit<ButtonProps, 'children' | 'onClick'>) {
  const pay = usePayNow();
  return (
    <Button size="xs" color="indigo" leftSection={<IconCreditCard size={15} />} loading={pay.pending} onClick={() => void pay.start(entryId)} {...rest}>
      Оплатить {formatRub(price)}
    </Button>
  );
}
