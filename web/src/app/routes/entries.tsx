import { EntryContractModal } from '../../features/contracts/components/entry-contract-modal';
import { PublicationByIdModal } from '../../features/publications/components/publication-view-modal';
import { PaymentsList } from '../../features/payments/components/payments-list';
import { usePaymentReturn } from '../../features/payments/use-payment-return';
import { EntriesPage } from '../../features/entries/pages/entries-page';
import { useCurrentUser } from '../../lib/current-user';
import { ContractDataBanner } from '../../features/documents/components/contract-data-banner';

/** /user/entry: own entries and own payments; back from the payment page, the result is asked for at once. */
export function UserEntriesRoute() {
  usePaymentReturn();
  const me = useCurrentUser();
  return (
    <>
      {me.data && <ContractDataBanner user={me.data} />}
      <EntriesPage mode="user" paymentsTab={me.data ? <PaymentsList userId={me.data.id} compact /> : null} />
    </>
  );
}

/** /manager/entry: every client's entries and all payments; the entry menu opens its publication and contract. */
export function ManagerEntriesRoute() {
  return (
    <EntriesPage
      mode="manager"
      paymentsTab={<PaymentsList />}
      renderPublication={(id, onClose) => <PublicationByIdModal publicationId={id} operator onClose={onClose} />}
      renderContract={(entry, onClose) => <EntryContractModal entry={entry} onClose={onClose} />}
    />
  );
}
