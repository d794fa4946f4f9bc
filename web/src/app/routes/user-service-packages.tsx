import { PackagesPage } from '../../features/service-packages/pages/packages-page';
import { renderPackagePay } from './package-pay';

/** /user/service-package: packages with the entries feature's pay step. */
export function UserServicePackagesRoute() {
  return <PackagesPage renderPayStep={renderPackagePay} />;
}
