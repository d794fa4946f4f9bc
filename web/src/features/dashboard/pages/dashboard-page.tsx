import type { ReactNode } from 'react';
import { Grid, Stack } from '@mantine/core';
import type { CurrentUser } from '@edu/domain/users/current-user';
import { useCurrentUser } from '../../../lib/current-user';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { GettingStarted } from '../components/getting-started';
import { StatCards } from '../components/stat-cards';
import { WelcomeCard } from '../components/welcome-card';

/** Blocks of other features, composed by the app. */
export interface DashboardSlots {
  /** The avatar upload button of the user card. */
  avatar: (user: CurrentUser) => ReactNode;
  /** Unread notifications with 'Очистить'. */
  notifications: ReactNode;
  /** The unpaid-payments block, or the pinned package card when nothing is unpaid. */
  payments: (user: CurrentUser) => ReactNode;
}

/** /user/dashboard (spec 01 §2): user card, four widgets, 'С чего начать?', notifications, payments or the pinned package. */
export function DashboardPage({ slots }: { slots: DashboardSlots }) {
  useDocumentTitle('Главная');
  const { data: user } = useCurrentUser();
  if (!user) return null;
  return (
    <Stack gap="lg">
      <WelcomeCard user={user} avatar={slots.avatar(user)} />
      <StatCards user={user} />
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 7 }}>
          <Stack gap="lg">
            {slots.payments(user)}
            <GettingStarted />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 5 }}>{slots.notifications}</Grid.Col>
      </Grid>
    </Stack>
  );
}
