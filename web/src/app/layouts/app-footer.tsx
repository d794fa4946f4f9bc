import { Anchor, Group, Text } from '@mantine/core';
import { REQUISITES_URL } from '../../lib/config';

/** Footer: the current year and the requisites link (spec 01 §2). */
export function AppFooter() {
  return (
    <Group component="footer" justify="space-between" gap="xs" mt="xl" pt="md" style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}>
      <Text size="sm" c="dimmed">
        © {new Date().getFullYear()} Учебный центр
      </Text>
      <Anchor href={REQUISITES_URL} target="_blank" rel="noopener noreferrer" size="sm">
        Реквизиты
      </Anchor>
    </Group>
  );
}
