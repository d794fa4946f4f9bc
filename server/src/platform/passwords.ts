import os from 'node:os';
import { hash, verify } from '@node-rs/argon2';
import { verify as verifyBcrypt } from '@node-rs/bcrypt';
import { BCRYPT_HASH } from '@edu/domain/users/user-import';
import { AppError } from './errors.ts';

// argon2id (about 19 ms of CPU each). Hashing runs off the event loop, at most one per core less
// one, so a burst of logins always leaves a core for every other request; past a queue of
// MAX_WAITING the answer is an immediate 503 rather than seconds of waiting.
const OPTIONS = { algorithm: 2 /* Argon2id */, memoryCost: 19_456, timeCost: 2, parallelism: 1 };
const MAX_PARALLEL = Math.max(1, Number(process.env.ARGON2_PARALLEL ?? os.availableParallelism() - 1));
const MAX_WAITING = Math.max(1, Number(process.env.ARGON2_QUEUE ?? 32));
export const BUSY_MESSAGE = 'Сервер занят, попробуйте войти через минуту';
let running = 0;
const waiting: Array<() => void> = [];

async function gated<T>(fn: () => Promise<T>): Promise<T> {
  if (running >= MAX_PARALLEL) {
    if (waiting.length >= MAX_WAITING) throw new AppError(503, BUSY_MESSAGE);
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
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

/** A stored hash of another algorithm than ours: re-hash the password at the next right login. */
export function needsRehash(hashed: string): boolean {
  return !hashed.startsWith('$argon2id$');
}

export async function verifyPassword(hashed: string | null | undefined, password: string): Promise<boolean> {
  if (!hashed) return false;
  // A malformed stored hash is a failed check; a full queue (503) is not. The old cabinet's accounts
  // come in with PHP's bcrypt hashes (npm run import -- users) and sign in with their old password.
  if (BCRYPT_HASH.test(hashed)) return gated(() => verifyBcrypt(password, hashed).catch(() => false));
  return gated(() => verify(hashed, password).catch(() => false));
}

/** A readable generated password for the password-forgot mail. */
export function generatePassword(length = 10): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';
  const bytes = crypto.getRandomValues(new Uint8Array(length));
  return Array.from(bytes, (b) => alphabet[b % alphabet.length]).join('');
}
