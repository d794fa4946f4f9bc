import type { PrintLinkAnswer } from '@edu/domain/documents/print-answers';
import { api } from '../../../lib/api-client';
import { hasToken } from '../../../lib/storage';

/**
 * GET /api/entry/{id}/print/{kind}, or GET /api/user/{id}/consent/print for kind 'consent' (id is then
 * the user's): {url}, a link to the document that works for a few minutes.
 */
export function getPrintUrl(id: string, kind: string, signal?: AbortSignal, protectedCall = true): Promise<PrintLinkAnswer> {
  const path =
    kind === 'consent' ? `/api/user/${encodeURIComponent(id)}/consent/print` : `/api/entry/${encodeURIComponent(id)}/print/${encodeURIComponent(kind)}`;
  return api.get<PrintLinkAnswer>(path, { signal, protectedCall });
}

/** The print tab's address: /entry/:id/print/:kind? (the certificate when no kind). */
const PRINT_PATH = /^\/entry\/([^/]+)\/print(?:\/([^/]+))?\/?$/;

let early: { key: string; answer: Promise<PrintLinkAnswer> } | null = null;

/**
 * Called once as the cabinet starts: a print tab (opened by a print menu item, signed in) asks for its
 * document at once, while the session check and the print page's code load, not after them: the
 * tab's start is most of a warm print's time (bench/README.md, «Print from the click to the file»).
 */
export function askForPrintEarly(pathname: string): void {
  const [, rawId, rawKind] = PRINT_PATH.exec(pathname) ?? [];
  if (!rawId || !hasToken()) return;
  const id = decodeURIComponent(rawId);
  const kind = rawKind ? decodeURIComponent(rawKind) : 'certificate';
  // An ended session is the session check's to handle (it keeps this address for after the login).
  const answer = getPrintUrl(id, kind, undefined, false);
  // Its failure is read by the page that takes it.
  answer.catch(() => undefined);
  early = { key: `${id}/${kind}`, answer };
}

/** The early answer for this document, once (a later print of the same document in this tab asks again). */
export function takeEarlyPrint(id: string, kind: string): Promise<PrintLinkAnswer> | null {
  if (early?.key !== `${id}/${kind}`) return null;
  const { answer } = early;
  early = null;
  return answer;
}
