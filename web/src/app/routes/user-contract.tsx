import { ClientContracts } from '../../features/contracts/components/client-contracts';
import { ContractPage } from '../../features/documents/pages/contract-page';

/** /user/contract: the wizard (documents feature) with the contracts step (contracts feature). */
export function UserContractRoute() {
  return <ContractPage contractStep={({ state }) => <ClientContracts contractAllowed={state.is_contract_allowed} />} />;
}
