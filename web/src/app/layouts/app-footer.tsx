import { Anchor, Group, Text } from '@mantine/core';
import { useSiteLinks } from '../../lib/site-links';

/** Footer: the current year and the requisites link (spec 01 §2), once an operator has set its address. */
export function AppFooter() {
  const links = useSiteLinks();
  return (
    <Group component="footer" justify="space-between" gap="xs" mt="xl" pt="md" style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}>
      <Text size="sm" c="dimmed">
        © {new Date().getFullYear()} Учебный центр
      </Text>
      {links?.requisites_url && (
        <Anchor href={links.requisites_url} target="_blank" rel="noopener noreferrer" size="sm">
          Реквизиты
        </Anchor>
      )}
    </Group>
  );
}
