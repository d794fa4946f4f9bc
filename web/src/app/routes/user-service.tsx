import { EntryModal } from '../../features/entries/components/entry-modal';
import { CataloguePage } from '../../features/services/pages/catalogue-page';

/** /user/service[/:id]: the catalogue with the entries feature's enrol modal. */
export function UserServiceRoute() {
  return <CataloguePage renderEntryModal={(slot) => <EntryModal opened={slot.opened} service={slot.service} onClose={slot.onClose} />} />;
}
