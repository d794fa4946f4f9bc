import { Badge, Box, Button, Group, List, Paper, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { Link } from 'react-router';
import { IconCheck, IconPackage } from '@tabler/icons-react';
import { PackageMessages, type ServicePackage } from '@edu/domain/service-packages/service-package';
import { paletteColor } from '../../../lib/colors';
import { PackagePrice } from './package-price';

/** A package card: its colour, price, old price, points and services; opens the package modal, or, once bought, leads to its entries. */
export function PackageCard({ pkg, onOpen, label = 'Записаться' }: { pkg: ServicePackage; onOpen: (pkg: ServicePackage) => void; label?: string }) {
  const color = paletteColor(pkg.color, 'grape');
  return (
    <Paper radius="lg" p={0} style={{ overflow: 'hidden', display: 'flex', flexDirection: 'column' }} data-testid="package-card">
      <Box h={6} bg={`${color}.6`} />
      <Stack gap="md" p="lg" style={{ flex: 1 }}>
        <Stack gap={6}>
          <ThemeIcon color={color} variant="light" size={40} radius="md">
            <IconPackage size={22} />
          </ThemeIcon>
          <Title order={3} size="h4" lh={1.3}>
            {pkg.title}
          </Title>
        </Stack>
        <PackagePrice pkg={pkg} />
        <List spacing={6} size="sm" icon={<IconCheck size={16} color={`var(--mantine-color-${color}-6)`} />} style={{ flex: 1 }}>
          {pkg.services.map((service) => (
            <List.Item key={service.id}>
              <Text size="sm" lh={1.35}>
                {service.title}
              </Text>
            </List.Item>
          ))}
        </List>
        {pkg.purchase ? (
          // Bought already: their entries, never a second purchase of the same package.
          <Stack gap={6} data-testid="package-bought">
            <Group gap={6} wrap="nowrap">
              <Badge color={pkg.purchase.paid ? 'teal' : 'orange'} variant="light" tt="none">
                {pkg.purchase.paid ? PackageMessages.bought : PackageMessages.boughtUnpaid}
              </Badge>
              <Text size="xs" c="dimmed">
                № {pkg.purchase.entry_numbers.join(', ')}
              </Text>
            </Group>
            <Button component={Link} to="/user/entry" color={color} variant="light" fullWidth>
              {PackageMessages.toMyEntries}
            </Button>
          </Stack>
        ) : (
          <Button color={color} onClick={() => onOpen(pkg)} fullWidth>
            {label}
          </Button>
        )}
      </Stack>
    </Paper>
  );
}
