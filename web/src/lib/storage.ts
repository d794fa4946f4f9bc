// Browser storage: the session token and the path to come back to after login.

const TOKEN_KEY = 'token';
const RETURN_PATH_KEY = 'returnPath';

function safe<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}

export function getToken(): string | null {
  return safe(() => localStorage.getItem(TOKEN_KEY), null);
}

export function setToken(token: string): void {
  safe(() => localStorage.setItem(TOKEN_KEY, token), undefined);
}

export function clearToken(): void {
  safe(() => localStorage.removeItem(TOKEN_KEY), undefined);
}

export function hasToken(): boolean {
  return Boolean(getToken());
}

/** Remembers the last visited non-auth path (spec 01 §2, guards). */
export function rememberPath(path: string): void {
  safe(() => localStorage.setItem(RETURN_PATH_KEY, path), undefined);
}

export function getRememberedPath(): string | null {
  return safe(() => localStorage.getItem(RETURN_PATH_KEY), null);
}

export function forgetPath(): void {
  safe(() => localStorage.removeItem(RETURN_PATH_KEY), undefined);
}

/** Session-scoped JSON values (e.g. the old-user lookup result kept for the confirmation page). */
export function readSessionJson<T>(key: string): T | null {
  return safe(() => {
    const raw = sessionStorage.getItem(key);
    return raw ? (JSON.parse(raw) as T) : null;
  }, null);
}

export function writeSessionJson(key: string, value: unknown): void {
  safe(() => sessionStorage.setItem(key, JSON.stringify(value)), undefined);
}

export function removeSession(key: string): void {
  safe(() => sessionStorage.removeItem(key), undefined);
}
