import { Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconNews } from '@tabler/icons-react';

/** Publication subtypes get their own entry form in a later issue. */
export function PublicationPlaceholder() {
  return (
    <Paper p="xl" radius="md">
      <Stack align="center" gap="sm" ta="center">
        <ThemeIcon size={48} radius="xl" variant="light" color="orange">
          <IconNews size={26} />
        </ThemeIcon>
        <Text fw={600}>Подача публикаций появится в ближайшее время</Text>
        <Text size="sm" c="dimmed" maw={440}>
          Пока вы можете выбрать другие услуги каталога.
        </Text>
      </Stack>
    </Paper>
  );
}
