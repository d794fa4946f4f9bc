import { Paper, Stack, Text, Title } from '@mantine/core';
import { useDocumentTitle } from '../lib/use-document-title';

/** A screen of a later issue: its Russian name and a calm note. */
export function PlaceholderPage({ title }: { title: string }) {
  useDocumentTitle(title);
  return (
    <Stack gap="md">
      <Title order={2}>{title}</Title>
      <Paper p="xl" radius="md">
        <Text c="dimmed">Раздел появится в ближайшее время.</Text>
      </Paper>
    </Stack>
  );
}
