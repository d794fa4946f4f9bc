import { Stack } from '@mantine/core';
import { useCurrentUser } from '../../../lib/current-user';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { GettingStarted } from '../components/getting-started';
import { StatCards } from '../components/stat-cards';
import { WelcomeCard } from '../components/welcome-card';

/** /user/dashboard (this issue: the user card, the four widgets and 'С чего начать?'). */
export function DashboardPage() {
  useDocumentTitle('Главная');
  const { data: user } = useCurrentUser();
  if (!user) return null;
  return (
    <Stack gap="lg">
      <WelcomeCard user={user} />
      <StatCards user={user} />
      <GettingStarted />
    </Stack>
  );
}
