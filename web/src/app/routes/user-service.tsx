import { useNavigate } from 'react-router';
import { EntryModal } from '../../features/entries/components/entry-modal';
import { PublicationCatalogueForm } from '../../features/publications/components/publication-catalogue-form';
import { CataloguePage } from '../../features/services/pages/catalogue-page';

/** /user/service[/:id]: the catalogue with the entries feature's enrol modal and, for publication subtypes, the publication form. */
export function UserServiceRoute() {
  const navigate = useNavigate();
  return (
    <CataloguePage
      renderEntryModal={(slot) => <EntryModal opened={slot.opened} service={slot.service} onClose={slot.onClose} />}
      renderPublicationForm={(subtypeId) => <PublicationCatalogueForm subtypeId={subtypeId} onDone={() => navigate('/user/publication')} />}
    />
  );
}
