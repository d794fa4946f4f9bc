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
      maxWidth: 240,
      render: (p) => (
        <div>
          <PaymentEntry payment={p} />
          <PaymentReference payment={p} operator={showClient} />
        </div>
      ),
    },
    ...(showClient ? [{ key: 'client', label: 'Клиент', maxWidth: 220, render: (p: Payment) => <PaymentClient payment={p} /> }] : []),
    { key: 'service', label: 'Услуга', maxWidth: 340, render: (p) => <PaymentService payment={p} /> },
    { key: 'payType', label: 'Тип оплаты', render: (p) => p.payTypeLabel || '—' },
    { key: 'sum', label: 'Сумма', card: 'aside', sort: sortable ? 'sum' : undefined, render: (p) => <PaymentSum payment={p} /> },
    createdAtColumn('date', 'Дата', sortable ? 'created_at' : undefined),
    ...(onRefund
      ? [
          {
            key: 'actions',
            label: '',
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
