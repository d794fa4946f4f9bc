import { Button, type ButtonProps } from '@mantine/core';
import { IconFileInvoice } from '@tabler/icons-react';
import { printKindLabels } from '@edu/domain/documents/print';

/** «Счёт на оплату»: the bank invoice of an unpaid entry (or its package), opened on the print page. */
export function InvoiceButton({ entryId, ...rest }: { entryId: number } & Omit<ButtonProps, 'children'>) {
  return (
    <Button
      size="xs"
      variant="light"
      color="indigo"
      component="a"
      href={`/entry/${entryId}/print/invoice`}
      target="_blank"
      rel="noopener"
      leftSection={<IconFileInvoice size={15} />}
      data-testid="invoice-button"
      {...rest}
    >
      {printKindLabels.invoice}
    </Button>
  );
}
