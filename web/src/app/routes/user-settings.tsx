import { MyDataPanel } from '../../features/personal-data/components/my-data-panel';
import { SettingsPage } from '../../features/users/pages/settings-page';

/** /user/settings with the «Мои данные» archive (issue 33). */
export function UserSettingsRoute() {
  return <SettingsPage extra={<MyDataPanel />} />;
}
