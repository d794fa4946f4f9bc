// Normalisation and tokenisation of a text for the uniqueness check. Every token keeps the UTF-16
// offsets of the original text it came from, so matches found on normalised words map back to
// exact character spans of what the user wrote.
import { isStopWord, stem } from './stem.ts';

export interface Token {
  /** Offsets into the original text, UTF-16 code units, end exclusive. */
  start: number;
  end: number;
  /** The normalised word (NFKC, lower case, look-alikes folded, ё→е). */
  word: string;
  /** Its Snowball stem. */
  stem: string;
  /** A function word (preposition, conjunction, pronoun, particle...). */
  stop: boolean;
  /** How many letters and digits of the original text the token covers. */
  letters: number;
}

/** Format characters (soft hyphen, zero-width spaces and joiners, bidi marks, BOM...) and other invisibles. */
const FORMAT = /^\p{Cf}$/u;
const isInvisible = (ch: string): boolean => {
  const c = ch.codePointAt(0)!;
  // Combining grapheme joiner, Hangul fillers, variation selectors.
  return FORMAT.test(ch) || c === 0x034f || c === 0x115f || c === 0x1160 || c === 0x3164 || c === 0xffa0 || (c >= 0xfe00 && c <= 0xfe0f);
};
const MARK = /\p{M}/u;
const MARKS = /\p{M}/gu;
const WORD_CHAR = /[\p{L}\p{N}]/u;
const CYRILLIC = /\p{Script=Cyrillic}/u;

/** Latin and Greek letters that look like Cyrillic ones (after lower-casing). */
const LOOKALIKES: Record<string, string> = {
  a: 'а',
  b: 'в',
  c: 'с',
  e: 'е',
  h: 'н',
  k: 'к',
  m: 'м',
  o: 'о',
  p: 'р',
  t: 'т',
  x: 'х',
  y: 'у',
  ο: 'о',
  α: 'а',
  ε: 'е',
  ρ: 'р',
  τ: 'т',
  κ: 'к',
  χ: 'х',
};

/** Folds Latin/Greek look-alikes into Cyrillic inside a word that has at least one Cyrillic letter; ё→е. */
export function foldWord(word: string): string {
  let out = word;
  if (CYRILLIC.test(word)) {
    out = '';
    for (const ch of word) out += LOOKALIKES[ch] ?? ch;
  }
  return out.replace(/ё/g, 'е');
}

/** A letter or digit that NFKC leaves alone: ASCII and basic Cyrillic. */
function isPlainWordChar(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x410 && c <= 0x44f) || c === 0x401 || c === 0x451;
}

/** Lower case of a plain word character. */
function lowerPlain(c: number): number {
  if ((c >= 0x41 && c <= 0x5a) || (c >= 0x410 && c <= 0x42f)) return c + 32;
  return c === 0x401 ? 0x451 : c;
}

/** Whether a combining mark starts at offset i (cheap for the common letters). */
function isMarkAt(text: string, i: number): boolean {
  if (i >= text.length) return false;
  const c = text.charCodeAt(i);
  if (c < 0x300 || (c >= 0x370 && c < 0x483) || (c > 0x489 && c < 0x591)) return false;
  if (c <= 0x36f || c <= 0x489) return true;
  return MARK.test(String.fromCodePoint(text.codePointAt(i)!));
}

function isWordChar(ch: string): boolean {
  const c = ch.charCodeAt(0);
  return isPlainWordChar(c) || (c >= 0x80 && WORD_CHAR.test(ch));
}

/**
 * Splits a text into word tokens: runs of letters and digits of the normalised text (a hyphen, an
 * apostrophe or any other mark separates words; invisible characters inside a word do not).
 * Normalisation is NFKC per grapheme cluster (a base character and its combining marks), lower case,
 * combining marks (stress accents) and invisible characters removed; each token keeps the original
 * offsets of its first and last characters. ASCII and basic Cyrillic not followed by a mark (almost
 * all of a Russian text) take a fast path.
 */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  const buf: number[] = [];
  let start = 0;
  let end = 0;
  let letters = 0;
  const flush = () => {
    if (buf.length === 0) return;
    let raw = '';
    for (let k = 0; k < buf.length; k += 4096) raw += String.fromCharCode(...buf.slice(k, k + 4096));
    const word = foldWord(raw);
    tokens.push({ start, end, word, stem: stem(word), stop: isStopWord(word), letters });
    buf.length = 0;
    letters = 0;
  };
  let i = 0;
  const n = text.length;
  while (i < n) {
    const code = text.charCodeAt(i);
    if ((code < 0x80 || (code >= 0x400 && code <= 0x45f)) && !isMarkAt(text, i + 1)) {
      if (isPlainWordChar(code)) {
        if (buf.length === 0) start = i;
        buf.push(lowerPlain(code));
        letters++;
        end = i + 1;
      } else flush();
      i++;
      continue;
    }
    const clusterStart = i;
    const first = String.fromCodePoint(text.codePointAt(i)!);
    i += first.length;
    if (isInvisible(first)) continue;
    let cluster = first;
    while (i < n) {
      const nextChar = String.fromCodePoint(text.codePointAt(i)!);
      if (MARK.test(nextChar)) {
        cluster += nextChar;
        i += nextChar.length;
      } else if (isInvisible(nextChar) && i + nextChar.length < n && MARK.test(String.fromCodePoint(text.codePointAt(i + nextChar.length)!))) {
        i += nextChar.length; // an invisible between a letter and its mark
      } else break;
    }
    const norm = cluster.normalize('NFKC').toLowerCase().replace(MARKS, '');
    let counted = !WORD_CHAR.test(first);
    for (const ch of norm) {
      if (!isWordChar(ch)) {
        flush();
        continue;
      }
      if (buf.length === 0) start = clusterStart;
      for (let k = 0; k < ch.length; k++) buf.push(ch.charCodeAt(k));
      if (!counted) {
        letters++;
        counted = true;
      }
      end = i;
    }
  }
  flush();
  return tokens;
}
