import { useState, type ReactNode } from 'react';
import { Anchor, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import type { ServicePackage } from '@edu/domain/service-packages/service-package';
import { usePackages } from '../api/get-packages';
import { PackageCard } from './package-card';
import { PackageModal, type PackagePaySlot } from './package-modal';

/**
 * Dashboard: the pinned recommended package for the user's first profile, or for no profile
 * (spec 01 §2); a skeleton while it loads.
 */
export function PinnedPackage({ profileId, renderPayStep }: { profileId: number | null; renderPayStep: (slot: PackagePaySlot) => ReactNode }) {
  const packages = usePackages({ pinned: true, profileId });
  const [opened, setOpened] = useState<ServicePackage | null>(null);
  const pkg = packages.data?.[0];

  return (
    <Stack gap="sm" data-testid="pinned-package">
      <Group justify="space-between">
        <Title order={3} size="h4">
          Рекомендуемый пакет
        </Title>
        <Anchor component={Link} to="/user/service-package" size="sm">
          Все пакеты
        </Anchor>
      </Group>
      {packages.isPending ? (
        <Skeleton h={300} radius="lg" data-testid="pinned-package-skeleton" />
      ) : pkg ? (
        <PackageCard pkg={pkg} onOpen={setOpened} />
      ) : (
        <Paper p="lg" radius="lg">
          <Text size="sm" c="dimmed">
            Выгодные наборы услуг — в разделе{' '}
            <Anchor component={Link} to="/user/service-package" size="sm">
              «Пакеты услуг»
            </Anchor>
            .
          </Text>
        </Paper>
      )}
      <PackageModal pkg={opened} onClose={() => setOpened(null)} renderPayStep={renderPayStep} />
    </Stack>
  );
}
