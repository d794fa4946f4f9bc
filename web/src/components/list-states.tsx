import { Paper, Skeleton, Stack, Text } from '@mantine/core';
import { Messages } from '@edu/domain/common/messages';

/** Rows of a list being loaded: table-like bars on wide screens, card blocks on narrow ones. */
export function ListSkeleton({ narrow, rows = 6 }: { narrow: boolean; rows?: number }) {
  return (
    <Stack gap={narrow ? 'sm' : 6} role="status" aria-busy="true" aria-label="Загрузка" data-testid="list-skeleton">
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} h={narrow ? 120 : 44} radius="md" />
      ))}
    </Stack>
  );
}

/** 'Ничего не найдено' (spec 01 §8). */
export function EmptyList({ text = Messages.nothingFound }: { text?: string }) {
  return (
    <Paper p="xl" radius="md">
      <Text c="dimmed" ta="center" data-testid="list-empty">
        {text}
      </Text>
    </Paper>
  );
}

export function ListError({ message }: { message: string }) {
  return (
    <Paper p="xl" radius="md">
      <Text c="red.7" ta="center" role="alert">
        {message}
      </Text>
    </Paper>
  );
}
