import { MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from 'react-router';
import { NOTICE_MS } from '@edu/domain/common/messages';
import { setUnauthorizedHandler } from '../lib/api-client';
import { queryClient } from './query-client';
import { router } from './router';
import { endSession } from './session';
import { cssVariablesResolver, theme } from './theme';

// A 401 on a protected call ends the session (spec 01 §4).
setUnauthorizedHandler(() => endSession(router, queryClient));

export function App() {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      {/* Placed by global.css: below the page's header and below a modal's title and close button. */}
      <Notifications position="top-right" autoClose={NOTICE_MS} limit={4} />
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </MantineProvider>
  );
}
