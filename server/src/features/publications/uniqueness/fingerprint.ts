// Shingles of words hashed to 64 bits and winnowed (Schleimer, Wilkerson, Aiken 2003, "Winnowing:
// local algorithms for document fingerprinting"): of every window of `w` consecutive shingle hashes
// the minimum is kept (the rightmost one on ties), so any shared run of at least w + k - 1 words is
// guaranteed to share a fingerprint, while only about 2/(w+1) of the shingles are stored.
import type { Token } from './tokenize.ts';

/** Content shingles: k consecutive content words (function words skipped). */
export const CONTENT_K = 3;
/** Stop-word n-grams (Stamatatos 2011): n consecutive function words, content words removed. */
export const STOP_N = 6;
/** Winnowing window (in shingles). */
export const WINNOW_W = 4;
/**
 * Positions kept of one hash in one text. A text that repeats itself («а а а …», one phrase pasted
 * over and over) has one shingle hash at every word, and the rightmost-minimum rule keeps each of
 * them: 240 000 rows for 480 000 characters of «а а», twelve times an ordinary text of that length.
 * Its first occurrences are enough to find it again; ordinary texts never repeat a 3-word shingle so often.
 */
export const MAX_REPEATS = 8;

export interface Fingerprint {
  /** Signed 64-bit hash (PostgreSQL bigint). */
  hash: bigint;
  /** Index of the shingle's first word in the text's tokens. */
  position: number;
}

/**
 * Fingerprints packed in two typed arrays, the form a prepared text carries between threads: each
 * array crosses as one copy (or moves), where 19 000 objects with a bigint each took 35 ms to clone,
 * half of it on the request thread (issue 29).
 */
export interface Fingerprints {
  hashes: BigInt64Array;
  positions: Int32Array;
}

export function packFingerprints(list: readonly Fingerprint[]): Fingerprints {
  const hashes = new BigInt64Array(list.length);
  const positions = new Int32Array(list.length);
  for (let k = 0; k < list.length; k++) {
    hashes[k] = list[k].hash;
    positions[k] = list[k].position;
  }
  return { hashes, positions };
}

/** Fingerprints `from` to `to` (end exclusive), sharing the arrays' memory. */
export function sliceFingerprints(f: Fingerprints, from: number, to: number): Fingerprints {
  return { hashes: f.hashes.subarray(from, to), positions: f.positions.subarray(from, to) };
}

/** 32-bit Murmur3-style mix of a string with a seed. */
export function hash32(s: string, seed: number): number {
  let h = seed >>> 0;
  for (let i = 0; i < s.length; i++) {
    let k = Math.imul(s.charCodeAt(i), 0xcc9e2d51);
    k = (k << 15) | (k >>> 17);
    k = Math.imul(k, 0x1b873593);
    h ^= k;
    h = (h << 13) | (h >>> 19);
    h = (Math.imul(h, 5) + 0xe6546b64) | 0;
  }
  return fmix(h ^ s.length);
}

function fmix(x: number): number {
  let h = x;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

interface Hash64 {
  hi: number;
  lo: number;
}

/** Hashes of a sequence of words as one shingle; `salt` keeps shingle kinds apart. */
function shingleHash(words: string[], salt: number): Hash64 {
  let hi = 0x243f6a88 ^ salt;
  let lo = 0x85a308d3 ^ Math.imul(salt, 0x9e3779b1);
  for (const w of words) {
    hi = fmix((hi ^ hash32(w, 0x9747b28c)) + Math.imul(lo, 31));
    lo = fmix((lo ^ hash32(w, 0x5bd1e995)) + Math.imul(hi, 17));
  }
  return { hi, lo };
}

function toBigint({ hi, lo }: Hash64): bigint {
  return BigInt.asIntN(64, (BigInt(hi) << 32n) | BigInt(lo));
}

function less(a: Hash64, b: Hash64): boolean {
  return a.hi < b.hi || (a.hi === b.hi && a.lo < b.lo);
}

interface Shingle {
  hash: Hash64;
  position: number;
}

/** Shingles of `k` consecutive selected tokens (stems), each at the position of its first token. */
function shingles(tokens: Token[], select: (t: Token) => boolean, k: number, salt: number): Shingle[] {
  const idx: number[] = [];
  for (let i = 0; i < tokens.length; i++) if (select(tokens[i])) idx.push(i);
  const out: Shingle[] = [];
  for (let s = 0; s + k <= idx.length; s++) {
    const words: string[] = [];
    for (let q = 0; q < k; q++) words.push(tokens[idx[s + q]].stem);
    out.push({ hash: shingleHash(words, salt), position: idx[s] });
  }
  return out;
}

/** Robust winnowing: the rightmost minimum of each window, each selected shingle once. */
export function winnow<T extends { hash: Hash64 }>(items: T[], w: number): T[] {
  if (items.length <= w) {
    if (items.length === 0) return [];
    let min = 0;
    for (let i = 1; i < items.length; i++) if (!less(items[min].hash, items[i].hash)) min = i;
    return [items[min]];
  }
  const out: T[] = [];
  let last = -1;
  for (let start = 0; start + w <= items.length; start++) {
    let min = start;
    for (let i = start + 1; i < start + w; i++) if (!less(items[min].hash, items[i].hash)) min = i;
    if (min !== last) {
      out.push(items[min]);
      last = min;
    }
  }
  return out;
}

const CONTENT_SALT = 1;
const STOP_SALT = 2;

function allShingles(tokens: Token[]): Shingle[] {
  return [...shingles(tokens, (t) => !t.stop, CONTENT_K, CONTENT_SALT), ...shingles(tokens, (t) => t.stop, STOP_N, STOP_SALT)];
}

/** The fingerprints stored for a text: both shingle kinds, each winnowed. */
export function storedFingerprints(tokens: Token[]): Fingerprint[] {
  const content = winnow(
    shingles(tokens, (t) => !t.stop, CONTENT_K, CONTENT_SALT),
    WINNOW_W,
  );
  const stop = winnow(
    shingles(tokens, (t) => t.stop, STOP_N, STOP_SALT),
    WINNOW_W,
  );
  const seen = new Map<bigint, number>();
  const out: Fingerprint[] = [];
  for (const s of [...content, ...stop]) {
    const hash = toBigint(s.hash);
    const n = seen.get(hash) ?? 0;
    if (n >= MAX_REPEATS) continue;
    seen.set(hash, n + 1);
    out.push({ hash, position: s.position });
  }
  return out;
}

/**
 * The hashes looked up for a checked text: its own winnowed fingerprints (so any shared run of
 * w + k - 1 words is found on both sides), one entry per distinct hash at its first position.
 */
export function queryFingerprints(tokens: Token[]): Fingerprint[] {
  const seen = new Set<bigint>();
  const out: Fingerprint[] = [];
  for (const f of storedFingerprints(tokens)) {
    if (seen.has(f.hash)) continue;
    seen.add(f.hash);
    out.push(f);
  }
  return out;
}

/** Every shingle hash of a text (not winnowed), one entry per distinct hash. */
export function allFingerprints(tokens: Token[]): Fingerprint[] {
  const seen = new Set<bigint>();
  const out: Fingerprint[] = [];
  for (const s of allShingles(tokens)) {
    const hash = toBigint(s.hash);
    if (seen.has(hash)) continue;
    seen.add(hash);
    out.push({ hash, position: s.position });
  }
  return out;
}
