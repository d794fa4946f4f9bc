import { Center, Loader } from '@mantine/core';

/** Shown while a page chunk or the current user loads. */
export function PageLoader({ fullScreen = false }: { fullScreen?: boolean }) {
  return (
    <Center h={fullScreen ? '100dvh' : 240} aria-busy="true">
      <Loader type="dots" role="status" aria-label="Загрузка" />
    </Center>
  );
}
