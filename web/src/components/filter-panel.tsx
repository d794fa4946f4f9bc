import type { ReactNode } from 'react';
import { Badge, Button, Collapse, Group, Paper, SimpleGrid, Stack } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { IconAdjustmentsHorizontal, IconX } from '@tabler/icons-react';

interface FilterPanelProps {
  /** How many filters hold a value (shown on the narrow-screen toggle). */
  active: number;
  onReset: () => void;
  narrow: boolean;
  children: ReactNode;
}

/**
 * The filters of an operator list: a grid of four per row on wide screens; on narrow ones folded
 * behind a 'Фильтры' button so the list stays in sight.
 */
export function FilterPanel({ active, onReset, narrow, children }: FilterPanelProps) {
  const [opened, { toggle }] = useDisclosure(false);
  const reset =
    active > 0 ? (
      <Button variant="subtle" color="gray" size="xs" leftSection={<IconX size={14} />} onClick={onReset}>
        Сбросить
      </Button>
    ) : null;

  if (narrow) {
    return (
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <Button
            variant="default"
            size="sm"
            leftSection={<IconAdjustmentsHorizontal size={16} />}
            rightSection={
              active > 0 ? (
                <Badge size="sm" circle>
                  {active}
                </Badge>
              ) : null
            }
            onClick={toggle}
            aria-expanded={opened}
          >
            Фильтры
          </Button>
          {reset}
        </Group>
        <Collapse expanded={opened}>
          <Paper p="md" radius="md">
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" verticalSpacing="sm">
              {children}
            </SimpleGrid>
          </Paper>
        </Collapse>
      </Stack>
    );
  }

  return (
    <Paper p="md" radius="md">
      <SimpleGrid cols={4} spacing="sm" verticalSpacing="sm">
        {children}
      </SimpleGrid>
      {reset && (
        <Group justify="flex-end" mt="xs">
          {reset}
        </Group>
      )}
    </Paper>
  );
}
