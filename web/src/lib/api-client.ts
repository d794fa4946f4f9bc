import { Messages } from '@edu/domain/common/messages';
import type { FieldErrors } from '@edu/domain/common/validation';
import { API_URL } from './config';
import { clearToken, getToken } from './storage';

/** Every failed call throws this. `status` 0 means no response at all. */
export class ApiError extends Error {
  readonly status: number;
  readonly errors?: FieldErrors;
  readonly code?: number;

  constructor(status: number, message: string, errors?: FieldErrors, code?: number) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.errors = errors;
    this.code = code;
  }

  /** The first message of a field, if the server sent one. */
  fieldError(field: string): string | undefined {
    return this.errors?.[field]?.[0];
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** Message to show for any error thrown by a call. */
export function errorMessage(error: unknown): string {
  if (isApiError(error)) return error.message;
  return Messages.serverError;
}

type UnauthorizedHandler = () => void;

let onUnauthorized: UnauthorizedHandler = () => {
  clearToken();
  window.location.assign('/login');
};

/** The app installs a handler that clears the session and navigates to /login inside the router. */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): void {
  onUnauthorized = handler;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Sent as JSON unless it is FormData. */
  body?: unknown;
  query?: Record<string, string | number | boolean | null | undefined>;
  headers?: Record<string, string>;
  /** Content type of a JSON body (default application/json). */
  contentType?: string;
  /** When false, a 401 answer does not end the session (login, register and similar public calls). */
  protectedCall?: boolean;
  signal?: AbortSignal;
}

function buildUrl(path: string, query?: RequestOptions['query']): string {
  let url = `${API_URL}${path}`;
  if (query) {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) {
      if (value !== undefined && value !== null && value !== '') params.append(key, String(value));
    }
    const qs = params.toString();
    if (qs) url += (url.includes('?') ? '&' : '?') + qs;
  }
  return url;
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return null;
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** Calls the API and returns the parsed JSON body; throws ApiError on any failure. */
export async function apiRequest<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, query, headers = {}, contentType = 'application/json', protectedCall = true, signal } = options;
  const token = getToken();
  const init: RequestInit = {
    method,
    credentials: 'include',
    signal,
    headers: {
      Accept: 'application/json',
      'X-Requested-With': 'XMLHttpRequest',
      ...(token ? { Authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
  };
  if (body !== undefined) {
    if (body instanceof FormData) {
      init.body = body;
    } else {
      (init.headers as Record<string, string>)['Content-Type'] = contentType;
      init.body = JSON.stringify(body);
    }
  }

  let response: Response;
  try {
    response = await fetch(buildUrl(path, query), init);
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new ApiError(0, Messages.serverError);
  }

  const data = await readBody(response);
  if (response.ok) return data as T;

  const payload = (data && typeof data === 'object' ? data : {}) as { message?: unknown; errors?: unknown; code?: unknown };
  const message = typeof payload.message === 'string' && payload.message ? payload.message : Messages.serverError;
  const errors = payload.errors && typeof payload.errors === 'object' ? (payload.errors as FieldErrors) : undefined;
  const code = typeof payload.code === 'number' ? payload.code : undefined;

  if (response.status === 401 && protectedCall && token) onUnauthorized();
  throw new ApiError(response.status, message, errors, code);
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) => apiRequest<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) => apiRequest<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) => apiRequest<T>(path, { ...options, method: 'PUT', body }),
  delete: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) => apiRequest<T>(path, { ...options, method: 'DELETE' }),
};
