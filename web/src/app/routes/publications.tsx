import { PayButton } from '../../features/entries/components/pay-button';
import { UserPublicationsPage } from '../../features/publications/pages/user-publications-page';

/** /user/publication: own publications; an unpaid entry is paid with the entries feature's button. */
export function UserPublicationsRoute() {
  return <UserPublicationsPage renderPay={(entry) => <PayButton entryId={entry.id} price={entry.price} />} />;
}
