import { Button, Center, Stack, Text, Title } from '@mantine/core';
import { isRouteErrorResponse, useRouteError } from 'react-router';

/** Shown when a page fails to load (e.g. a chunk after a deploy) or throws. */
export function RouteError() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <Center mih="100dvh" p="md">
      <Stack align="center" gap="sm" maw={420} ta="center">
        <Title order={2}>{notFound ? 'Страница не найдена' : 'Не удалось открыть страницу'}</Title>
        <Text c="dimmed">{notFound ? 'Проверьте адрес или вернитесь на главную.' : 'Обновите страницу. Если ошибка повторится, попробуйте позже.'}</Text>
        <Button onClick={() => window.location.reload()}>Обновить страницу</Button>
      </Stack>
    </Center>
  );
}
