import { ServiceEntriesModal } from '../../features/entries/components/service-entries-modal';
import { AllServicesPage } from '../../features/services/pages/all-services-page';

/** /manager/all-services «Все услуги»: the services list with the entries feature's entries-and-guests modal. */
export function ManagerAllServicesRoute() {
  return <AllServicesPage renderEntriesModal={(slot) => <ServiceEntriesModal service={slot.service} onClose={slot.onClose} />} />;
}
