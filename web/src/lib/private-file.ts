import type { z } from 'zod';
import { Messages } from '@edu/domain/common/messages';
import type { fileLinkAnswer } from '@edu/domain/documents/documents';
import { api, ApiError } from './api-client';
import { API_URL } from './config';
import { getToken } from './storage';

/**
 * Private files (documents, scans, exports) are served only to a signed-in owner or operator, so
 * they are fetched with the session token and handed to the browser as a blob: no file ever has a
 * public address, and no token ends up in a URL.
 */
export async function fetchPrivateFile(url: string): Promise<Blob> {
  const token = getToken();
  let response: Response;
  try {
    response = await fetch(`${API_URL}${url}`, { headers: token ? { Authorization: `Bearer ${token}` } : {}, credentials: 'include' });
  } catch {
    throw new ApiError(0, Messages.serverError);
  }
  if (!response.ok) {
    let message: string = Messages.serverError;
    try {
      const body = (await response.json()) as { message?: string };
      if (body.message) message = body.message;
    } catch {
      // not JSON
    }
    throw new ApiError(response.status, message);
  }
  return response.blob();
}

/**
 * Opens a stored file (its url is /api/file/{id}) in a new tab through a short-lived link the
 * server hands out for it (GET /api/file/{id}/link). The tab is opened at once, inside the click, so
 * no popup blocker stops it, and is pointed at the link when it arrives. (A blob tab would inherit
 * the cabinet's content policy, which keeps the browser's PDF viewer out.)
 */
export async function openPrivateFile(fileUrl: string): Promise<void> {
  const tab = window.open('', '_blank');
  try {
    const { url } = await api.get<z.output<typeof fileLinkAnswer>>(`${fileUrl}/link`);
    if (tab) {
      tab.opener = null;
      tab.location.href = `${API_URL}${url}`;
    } else window.location.assign(`${API_URL}${url}`);
  } catch (error) {
    tab?.close();
    throw error;
  }
}

/** Downloads a private file under the given name. */
export async function downloadPrivateFile(url: string, fileName: string): Promise<void> {
  const blob = await fetchPrivateFile(url);
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(href), 60_000);
}
