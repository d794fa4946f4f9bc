import { useEffect, useRef } from 'react';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconClock } from '@tabler/icons-react';
import { useNavigate } from 'react-router';
import { formatRub } from '@edu/domain/common/format';
import { PACKAGE_PAY_WINDOW_MIN } from '@edu/domain/service-packages/service-package';
import { InvoiceButton } from './invoice-button';
import { usePayNow } from './use-pay-now';

interface PayStepProps {
  /** The entry whose payment starts (for a package: its first entry). */
  entryId: number;
  /** What is paid: the entry or the whole package price. */
  price: number;
  /** Entry number(s) to name in the text. */
  numbers: string[];
  /** A package is paid online within 15 minutes, or its entries are removed. */
  isPackage?: boolean;
  onLater?: () => void;
  /** Go to the payment page at once (a package: 'Оплатить {price} ₽' is one click). */
  autoStart?: boolean;
  /** The entry is paid through a bank: offer its invoice. */
  invoice?: boolean;
}

/** The last step of the entry and package flows: pay now or later (spec 01 §4). */
export function PayStep({ entryId, price, numbers, isPackage = false, onLater, autoStart = false, invoice = false }: PayStepProps) {
  const navigate = useNavigate();
  const pay = usePayNow();
  const started = useRef(false);
  const { start } = pay;
  useEffect(() => {
    if (!autoStart || started.current) return;
    started.current = true;
    void start(entryId);
  }, [autoStart, entryId, start]);
  const label = numbers.length > 1 ? `Заявки № ${numbers.join(', ')} ожидают оплаты.` : `Заявка № ${numbers[0] ?? ''} ожидает оплаты.`;
  return (
    <Stack gap="md" data-testid="pay-step">
      <Text>{label}</Text>
      <Text size="lg" fw={700}>
        К оплате: {formatRub(price)}
      </Text>
      {isPackage && (
        <Alert color="orange" variant="light" icon={<IconClock size={18} />}>
          Оплатите пакет онлайн в течение {PACKAGE_PAY_WINDOW_MIN} минут, иначе заявки будут удалены.
        </Alert>
      )}
      {invoice && (
        <Text size="sm">
          Распечатайте счёт на оплату и оплатите его в банке; заявка будет отмечена оплаченной, когда деньги поступят. Можно оплатить и онлайн.
        </Text>
      )}
      <Group justify="flex-end" gap="sm">
        {invoice && <InvoiceButton entryId={entryId} size="sm" />}
        <Button
          variant="default"
          onClick={() => {
            onLater?.();
            // Fire-and-forget: nothing waits on the route transition.
            void navigate('/user/entry');
          }}
        >
          Оплатить позже
        </Button>
        <Button loading={pay.pending} onClick={() => void pay.start(entryId)}>
          Оплатить сейчас
        </Button>
      </Group>
    </Stack>
  );
}
