import type { PrintLinkAnswer } from '@edu/domain/documents/print-answers';
import { api } from '../../../lib/api-client';

/**
 * GET /api/entry/{id}/print/{kind}, or GET /api/user/{id}/consent/print for kind 'consent' (id is then
 * the user's): {url}, a link to the document that works for a few minutes.
 */
export function getPrintUrl(id: string, kind: string, signal?: AbortSignal): Promise<PrintLinkAnswer> {
  const path =
    kind === 'consent' ? `/api/user/${encodeURIComponent(id)}/consent/print` : `/api/entry/${encodeURIComponent(id)}/print/${encodeURIComponent(kind)}`;
  return api.get<PrintLinkAnswer>(path, { signal });
}
