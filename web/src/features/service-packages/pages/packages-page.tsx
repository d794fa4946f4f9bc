import { useState, type ReactNode } from 'react';
import { Paper, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { Messages } from '@edu/domain/common/messages';
import type { ServicePackage } from '@edu/domain/service-packages/service-package';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { usePackages } from '../api/get-packages';
import { PackageCard } from '../components/package-card';
import { PackageModal, type PackagePaySlot } from '../components/package-modal';

/** /user/service-package: every package as a card; a card opens the package modal. */
export function PackagesPage({ renderPayStep }: { renderPayStep: (slot: PackagePaySlot) => ReactNode }) {
  useDocumentTitle('Пакеты услуг');
  const packages = usePackages();
  const [opened, setOpened] = useState<ServicePackage | null>(null);

  return (
    <Stack gap="lg">
      <div>
        <Title order={2}>Пакеты услуг</Title>
        <Text c="dimmed" size="sm" mt={4}>
          Несколько услуг вместе по выгодной цене. Пакет оплачивается онлайн сразу после записи.
        </Text>
      </div>
      {packages.isPending ? (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} h={320} radius="lg" />
          ))}
        </SimpleGrid>
      ) : packages.isError ? (
        <Paper p="xl" radius="md">
          <Text c="red.7">{Messages.serverError}</Text>
        </Paper>
      ) : packages.data.length === 0 ? (
        <Paper p="xl" radius="md">
          <Text c="dimmed" ta="center">
            {Messages.nothingFound}
          </Text>
        </Paper>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="lg">
          {packages.data.map((pkg) => (
            <PackageCard key={pkg.id} pkg={pkg} onOpen={setOpened} />
          ))}
        </SimpleGrid>
      )}
      <PackageModal pkg={opened} onClose={() => setOpened(null)} renderPayStep={renderPayStep} />
    </Stack>
  );
}
