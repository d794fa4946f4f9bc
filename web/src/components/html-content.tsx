import { useMemo } from 'react';
import { Typography, type TypographyProps } from '@mantine/core';
import { sanitizeHtml } from '../lib/sanitize-html';

/** HTML written by operators (descriptions, notifications), cleaned before it reaches the page. */
export function HtmlContent({ html, ...rest }: { html: string | null | undefined } & Omit<TypographyProps, 'children'>) {
  const clean = useMemo(() => sanitizeHtml(html), [html]);
  if (!clean) return null;
  return <Typography {...rest} dangerouslySetInnerHTML={{ __html: clean }} />;
}
