import { describe, expect, it } from 'vitest';
import { foldWord, tokenize } from './tokenize.ts';

const words = (text: string) => tokenize(text).map((t) => t.word);
/** Every token's offsets cut its own original spelling out of the text. */
const slices = (text: string) => tokenize(text).map((t) => text.slice(t.start, t.end));

describe('normalisation', () => {
  it('lower-cases, turns ё into е and keeps plain offsets', () => {
    const text = 'Ёлка, ЗЕЛЁНАЯ ёлочка!';
    expect(words(text)).toEqual(['елка', 'зеленая', 'елочка']);
    expect(slices(text)).toEqual(['Ёлка', 'ЗЕЛЁНАЯ', 'ёлочка']);
  });

  it('folds Latin look-alikes into Cyrillic inside Cyrillic words only', () => {
    // "Учитeль" with a Latin e, "сoрок" with a Latin o, "Hовый" with a Latin H; "coca" stays Latin.
    expect(words('Учитeль сoрок Hовый coca')).toEqual(['учитель', 'сорок', 'новый', 'coca']);
    expect(foldWord('pектор')).toBe('ректор');
    expect(foldWord('xop')).toBe('xop');
  });

  it('removes invisible characters inside words and keeps the original offsets around them', () => {
    const text = 'про\u00ADграм\u200Bма и\u200D текст\uFEFF';
    expect(words(text)).toEqual(['программа', 'и', 'текст']);
    expect(slices(text)).toEqual(['про\u00ADграм\u200Bма', 'и', 'текст']);
  });

  it('applies NFKC (full-width letters, ligatures) with exact UTF-16 offsets', () => {
    const text = 'ＡＢＣ ﬁle 𝐀x слово';
    const tokens = tokenize(text);
    expect(tokens.map((t) => t.word)).toEqual(['abc', 'file', 'ax', 'слово']);
    expect(slices(text)).toEqual(['ＡＢＣ', 'ﬁle', '𝐀x', 'слово']);
    // '𝐀' is two UTF-16 code units: the next word starts after it.
    expect(tokens[3].start).toBe(text.indexOf('слово'));
  });

  it('drops stress marks and composes a decomposed й', () => {
    const text = 'замо\u0301к и\u0306од';
    expect(words(text)).toEqual(['замок', 'йод']);
    expect(slices(text)).toEqual(['замо\u0301к', 'и\u0306од']);
  });

  it('splits on hyphens and punctuation and counts letters and digits of the original', () => {
    const tokens = tokenize('из-за 2024 г.; «Кто-то»');
    expect(tokens.map((t) => t.word)).toEqual(['из', 'за', '2024', 'г', 'кто', 'то']);
    expect(tokens.map((t) => t.letters)).toEqual([2, 2, 4, 1, 3, 2]);
  });

  it('stems consistently and marks function words', () => {
    const tokens = tokenize('Красивая красивого красивые и в');
    expect(new Set(tokens.slice(0, 3).map((t) => t.stem)).size).toBe(1);
    expect(tokens.map((t) => t.stop)).toEqual([false, false, false, true, true]);
  });

  it('answers no tokens for text without letters or digits', () => {
    expect(tokenize('  …—!? \u200B ')).toEqual([]);
  });
});
