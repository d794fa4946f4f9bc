import { Fragment } from 'react';
import { Anchor, Badge, Group, Stack, Text } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { Link } from 'react-router';
import { formatRub } from '@edu/domain/common/format';
import { PaymentMessages, type Payment } from '@edu/domain/payments/payment';
import classes from './payment-columns.module.css';

/** The provider's payment id; a link to its page at the provider (new tab) when there is one. */
export function ProviderUuid({ uuid, url }: { uuid: string | null; url: string | null }) {
  if (!uuid) return null;
  const text = (
    <Text span size="xs" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
      {uuid}
    </Text>
  );
  if (!url)
    return (
      <Text size="xs" c="dimmed" data-testid="payment-uuid">
        {text}
      </Text>
    );
  return (
    <Anchor href={url} target="_blank" rel="noopener noreferrer" size="xs" c="dimmed" data-testid="payment-uuid" title="Открыть платёж у платёжной системы">
      <Group gap={4} wrap="nowrap" align="center" component="span">
        {text}
        <IconExternalLink size={12} style={{ flexShrink: 0 }} />
      </Group>
    </Anchor>
  );
}

/**
 * How a payment is named to the person who paid: its order number in our cabinet ('Платёж № 12');
 * operators also see the provider's id, linked to its page there.
 */
export function PaymentReference({ payment, operator }: { payment: Payment; operator: boolean }) {
  if (operator) return <ProviderUuid uuid={payment.uuid} url={payment.provider_url} />;
  return (
    <Text size="xs" c="dimmed" data-testid="payment-number">
      Платёж № {payment.id}
    </Text>
  );
}

/** Entry numbers, each kept on one line; the list wraps between them. */
export function Numbers({ numbers }: { numbers: string[] }) {
  return (
    <Text size="sm" fw={600} component="div">
      {numbers.map((n, i) => (
        <Fragment key={n}>
          <span style={{ whiteSpace: 'nowrap' }}>
            {n}
            {i < numbers.length - 1 ? ',' : ''}
          </span>
          {i < numbers.length - 1 ? ' ' : ''}
        </Fragment>
      ))}
    </Text>
  );
}

/** Заявка: the entry number, or 'Пакет услуг' with every number when one payment covers several. */
export function PaymentEntry({ payment }: { payment: Payment }) {
  if (payment.is_package) {
    return (
      <Stack gap={2}>
        <Badge variant="light" color="violet" tt="none" size="sm">
          {PaymentMessages.packageLabel}
        </Badge>
        <Numbers numbers={payment.entries.map((e) => e.number)} />
      </Stack>
    );
  }
  return (
    <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
      {payment.entry_number ?? '—'}
    </Text>
  );
}

/** Клиент: the payer's name, opening their card among the users. */
export function PaymentClient({ payment }: { payment: Payment }) {
  const user = payment.entry?.user;
  if (!user) return <Text size="sm">—</Text>;
  return (
    <Anchor component={Link} to={`/manager/users?id=${user.id}`} size="sm" lh={1.35} className={classes.twoLines} title={user.fio}>
      {user.fio}
    </Anchor>
  );
}

/** Услуга: title and service type. */
export function PaymentService({ payment }: { payment: Payment }) {
  const service = payment.entry?.service;
  if (!service) return <Text size="sm">{payment.description ?? '—'}</Text>;
  return (
    <div>
      <Text size="sm" fw={500} lh={1.35} className={classes.oneLine} title={service.title}>
        {service.title}
      </Text>
      {service.type && (
        <Text size="xs" c="dimmed" lh={1.35} className={classes.oneLine} title={service.type}>
          {service.type}
        </Text>
      )}
    </div>
  );
}

/**
 * Сумма, with an orange 'Двойная оплата' badge for a second payment of the same entry and a grape
 * 'Возврат …' badge for the money refunded (grey while the provider has not confirmed it).
 */
export function PaymentSum({ payment, align = 'flex-start' }: { payment: Payment; align?: 'flex-start' | 'flex-end' }) {
  return (
    <Stack gap={4} align={align}>
      <Text size="sm" fw={600} style={{ whiteSpace: 'nowrap' }}>
        {formatRub(payment.sum)}
      </Text>
      {payment.is_double && (
        <Badge color="orange" variant="light" tt="none" size="sm" data-testid="double-payment">
          {PaymentMessages.doublePayment}
        </Badge>
      )}
      {payment.refunded_sum > 0 && (
        <Badge
          color="grape"
          variant="light"
          tt="none"
          size="sm"
          styles={{ label: { whiteSpace: 'nowrap' } }}
          data-testid="refunded-payment"
          title={payment.refunds
            .filter((r) => r.status === 'succeeded')
            .map((r) => `${r.created_at_formatted}: ${formatRub(r.sum)} — ${r.reason}`)
            .join('\n')}
        >
          {PaymentMessages.refundLabel(formatRub(payment.refunded_sum))}
        </Badge>
      )}
      {payment.refund_pending_sum > 0 && (
        <Badge color="gray" variant="light" tt="none" size="sm" styles={{ label: { whiteSpace: 'nowrap' } }} data-testid="refund-pending">
          {PaymentMessages.refundPendingLabel(formatRub(payment.refund_pending_sum))}
        </Badge>
      )}
    </Stack>
  );
}
