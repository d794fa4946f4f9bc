import { Group, Text, ThemeIcon } from '@mantine/core';

/** Logo mark and product name. */
export function Brand({ compact = false }: { compact?: boolean }) {
  return (
    <Group gap={10} wrap="nowrap">
      <ThemeIcon size={34} radius="md" variant="filled" aria-hidden>
        <svg width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
          <path d="M22 9L12 5 2 9l10 4 10-4v6" />
          <path d="M6 10.6V16c0 1.7 2.7 3 6 3s6-1.3 6-3v-5.4" />
        </svg>
      </ThemeIcon>
      {!compact && (
        <Text fw={700} size="lg" lh={1.1} visibleFrom="xs">
          Личный кабинет
        </Text>
      )}
    </Group>
  );
}
