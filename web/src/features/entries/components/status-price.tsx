import { Badge, Group, Stack, Text } from '@mantine/core';
import { EntryStatus, PayType } from '@edu/domain/common/codes';
import { formatRub } from '@edu/domain/common/format';
import { EntryMessages, type Entry } from '@edu/domain/entries/entry';
import { InvoiceButton } from './invoice-button';
import { PayButton } from './pay-button';

/** Labels that must never be cut ('Подтверж…', 'Оплаче…'). */
const whole = {
  root: { overflow: 'visible', flexShrink: 0, height: 'auto', minHeight: 'var(--badge-height)' },
  label: { overflow: 'visible', textOverflow: 'clip' },
} as const;

/** 'Бесплатно' for a free entry, else the price (spec prices as `1 500 ₽`). */
export const priceText = (price: number) => (price === 0 ? EntryMessages.free : formatRub(price));

/**
 * Status badge and price; an unpaid entry offers 'Оплатить {price} ₽'; while a provider payment of
 * it is open, 'Ожидается ответ платёжной системы' instead (spec 01 §2); an entry paid through a bank
 * also offers «Счёт на оплату». A free entry reads
 * 'Бесплатно'. `price` overrides the entry's (a package purchase shows the package price and pays
 * as a whole); `inPackage` shows the status only, the purchase carries the price and the button.
 */
export function StatusPrice({ entry, price = entry.price, inPackage = false }: { entry: Entry; price?: number; inPackage?: boolean }) {
  const unpaid = entry.status === EntryStatus.notPaid && !entry.deleted_at;
  const free = price === 0 && !inPackage;
  return (
    <Stack gap={6} align="flex-start">
      <Group gap={8} wrap="wrap">
        {free && entry.status !== EntryStatus.done ? (
          <Badge color="teal" variant="light" tt="none" styles={whole} data-testid="entry-status">
            {EntryMessages.free}
          </Badge>
        ) : (
          <Badge color={entry.statusColor} variant="light" tt="none" styles={whole} data-testid="entry-status">
            {entry.statusLabel}
          </Badge>
        )}
        {!inPackage && !(free && entry.status !== EntryStatus.done) && (
          <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }} data-testid="entry-price">
            {priceText(price)}
          </Text>
        )}
      </Group>
      {unpaid &&
        !inPackage &&
        (entry.awaiting_provider ? (
          <Text size="xs" c="orange.8">
            {EntryMessages.awaitingProvider}
          </Text>
        ) : (
          price > 0 && (
            <Group gap={6} wrap="wrap">
              <PayButton entryId={entry.id} price={price} entry={entry} />
              {/* A bank-transfer entry is paid by invoice; the operators' print menu offers it too. */}
              {entry.pay_type === PayType.bank && entry.printable.includes('invoice') && <InvoiceButton entryId={entry.id} />}
            </Group>
          )
        ))}
    </Stack>
  );
}
