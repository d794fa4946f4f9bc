import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './app/global.css';
import { installRussianErrors } from '@edu/domain/common/zod-ru';
import { App } from './app/app';
import { askForPrintEarly } from './features/print/api/get-print-url';

// Field errors of every form schema without its own text read in Russian, as the server's do.
installRussianErrors();
// A print tab asks for its document before the cabinet has started in it.
askForPrintEarly(window.location.pathname);

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
