import { useNavigate } from 'react-router';
import { ServiceEntriesModal } from '../../features/entries/components/service-entries-modal';
import { PublicationCatalogueForm } from '../../features/publications/components/publication-catalogue-form';
import { ManagerServicesPage } from '../../features/services/pages/manager-services-page';

/** /manager/service[/:id]: the services screen with the entries feature's entries-and-guests modal; publication subtypes show the publication form. */
export function ManagerServicesRoute() {
  const navigate = useNavigate();
  return (
    <ManagerServicesPage
      renderEntriesModal={(slot) => <ServiceEntriesModal service={slot.service} onClose={slot.onClose} />}
      renderPublicationForm={(subtypeId) => <PublicationCatalogueForm subtypeId={subtypeId} onDone={() => navigate('/manager/publication')} />}
    />
  );
}
