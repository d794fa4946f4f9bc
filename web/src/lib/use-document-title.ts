import { useEffect } from 'react';

const APP_TITLE = 'Личный кабинет';

/** Sets the browser tab title to «<page> — Личный кабинет». */
export function useDocumentTitle(page?: string): void {
  useEffect(() => {
    document.title = page ? `${page} — ${APP_TITLE}` : APP_TITLE;
  }, [page]);
}
