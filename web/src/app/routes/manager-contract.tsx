import { ContractBoardPage } from '../../features/contracts/pages/contract-board-page';
import { ClientDocuments } from '../../features/documents/components/client-documents';

/** /manager/contract: the review board (contracts feature) with the client's documents (documents feature). */
export function ManagerContractRoute() {
  return <ContractBoardPage renderDocuments={(userId) => <ClientDocuments userId={userId} />} />;
}
