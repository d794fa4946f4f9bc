import { Code, Stack, Text } from '@mantine/core';
import type { PresentedChange } from '@edu/domain/logs/log-fields';

/** A change as 'Поле: было → стало' lines, as the server words them (labels, names, Moscow time). */
export function ChangeDiffView({ changes }: { changes: PresentedChange[] }) {
  if (changes.length === 0)
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  return (
    <Stack gap={2}>
      {changes.map((c) => (
        <Text key={c.field} size="xs" lh={1.45} style={{ overflowWrap: 'anywhere' }}>
          <Text span size="xs" fw={600}>
            {c.label}:
          </Text>{' '}
          <Code>{c.old}</Code> → <Code>{c.new}</Code>
        </Text>
      ))}
    </Stack>
  );
}
