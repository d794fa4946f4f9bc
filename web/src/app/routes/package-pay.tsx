import { PayStep } from '../../features/entries/components/pay-step';
import type { PackagePaySlot } from '../../features/service-packages/components/package-modal';

/**
 * The pay step of a package: the entries feature pays the package (through its first entry) at the
 * package price, going to the payment page at once; the step stays to retry or pay later.
 */
export function renderPackagePay(slot: PackagePaySlot) {
  return <PayStep entryId={slot.entryId} price={slot.price} numbers={slot.numbers} isPackage autoStart />;
}
