import { Badge } from '@mantine/core';
import { PublicationMessages } from '../api/types';

/** Whether the publication's entry is paid (isPaidStatus on the server): the list's «Оплата» column and the view modal. */
export function PublicationPaymentBadge({ paid }: { paid: boolean }) {
  return (
    <Badge
      color={paid ? 'teal' : 'red'}
      variant={paid ? 'light' : 'outline'}
      style={{ flexShrink: 0, overflow: 'visible' }}
      styles={{ label: { whiteSpace: 'nowrap' } }}
      data-testid="publication-payment"
    >
      {paid ? PublicationMessages.paid : PublicationMessages.unpaid}
    </Badge>
  );
}
