import { hash, verify } from '@node-rs/argon2';

// argon2id. Hashing runs on libuv's thread pool; a small gate keeps a burst of logins from
// occupying every worker thread so other requests (file reads, DNS) are not starved.
const OPTIONS = { algorithm: 2 /* Argon2id */, memoryCost: 19_456, timeCost: 2, parallelism: 1 };
const MAX_PARALLEL = Math.max(1, Number(process.env.ARGON2_PARALLEL ?? 2));
let running = 0;
const waiting: Array<() => void> = [];

async function gated<T>(fn: () => Promise<T>): Promise<T> {
  if (running >= MAX_PARALLEL) await new Promise<void>((resolve) => waiting.push(resolve));
  running++;
  try {
    return await fn();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

export function hashPassword(password: string): Promise<string> {
  return gated(() => hash(password, OPTIONS));
}

export async function verifyPassword(hashed: string | null | undefined, password: string): Promise<boolean> {
  if (!hashed) return false;
  try {
    return await gated(() => verify(hashed, password));
  } catch {
    return false;
  }
}

/** A readable generated password for the password-forgot mail. */
export function generatePassword(length = 10): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}
