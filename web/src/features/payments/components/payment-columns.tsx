import { Button } from '@mantine/core';
import { IconReceiptRefund } from '@tabler/icons-react';
import { PaymentMessages, type Payment } from '@edu/domain/payments/payment';
import type { ListColumn } from '../../../components/data-list';
import { createdAtColumn } from '../../../components/created-at-column';
import classes from './payment-columns.module.css';
import { PaymentClient, PaymentEntry, PaymentReference, PaymentService, PaymentSum } from './payment-cells';

/**
 * The payments list described once (spec 03 §2): Заявка, Клиент (operators' list of all payments),
 * Услуга, Тип оплаты, Сумма, Дата; a table above 1199 px, cards at or below. `sortable`: the sum
 * and date headers sort the list (the operators' page keeps the sort in the address bar).
 */
export function paymentColumns(showClient: boolean, onRefund?: (p: Payment) => void, sortable = false): Array<ListColumn<Payment>> {
  return [
    {
      key: 'entry',
      label: 'Заявка',
      card: 'title',
      width: 122,
      render: (p) => (
        <div>
          <PaymentEntry payment={p} />
          <PaymentReference payment={p} operator={showClient} />
        </div>
      ),
    },
    ...(showClient ? [{ key: 'client', label: 'Клиент', width: '18%', render: (p: Payment) => <PaymentClient payment={p} /> }] : []),
    { key: 'service', label: 'Услуга', render: (p) => <PaymentService payment={p} /> },
    { key: 'payType', label: 'Тип оплаты', width: 104, render: (p) => p.payTypeLabel || '—' },
    { key: 'sum', label: 'Сумма', card: 'aside', width: 140, sort: sortable ? 'sum' : undefined, render: (p) => <PaymentSum payment={p} /> },
    { ...createdAtColumn<Payment>('date', 'Дата', sortable ? 'created_at' : undefined), width: 136 },
    ...(onRefund
      ? [
          {
            key: 'actions',
            label: '',
            // The icon alone from 1200 to 1407 px, its words from 1408 px.
            width: { base: 64, xl: 160 },
            card: 'footer' as const,
            render: (p: Payment) =>
              p.refundable_sum > 0 ? (
                // Words on a wide table (from 1408 px) and on cards; the name tells a screen reader which payment.
                <Button
                  size="compact-sm"
                  variant="subtle"
                  color="grape"
                  leftSection={<IconReceiptRefund size={16} />}
                  aria-label={`${PaymentMessages.refundTitle}: ${p.entry_number ? `заявка № ${p.entry_number}` : `платёж № ${p.id}`}`}
                  onClick={() => onRefund(p)}
                  data-testid="refund-button"
                >
                  {/* The table from 1200 to 1407 px is tight: the icon alone there (the name stays). */}
                  <span className={classes.words}>{PaymentMessages.refundButton}</span>
                </Button>
              ) : null,
          },
        ]
      : []),
  ];
}
