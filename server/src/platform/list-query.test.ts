import { describe, expect, it } from 'vitest';
import { fioWords, trigramsServe } from './list-query.ts';

describe('trigramsServe (may a LIKE pattern be planned once?)', () => {
  it('is true when every run of letters or digits has three characters or more', () => {
    expect(trigramsServe(['Иванова'])).toBe(true);
    expect(trigramsServe(['Иванова Мария'])).toBe(true);
    expect(trigramsServe(['ivanov@mail'])).toBe(true);
    expect(trigramsServe(['9211', 'Пет'])).toBe(true);
  });
  it('is false when a run is shorter (no trigram to look up) or there is nothing to look up', () => {
    expect(trigramsServe(['Ив'])).toBe(false);
    expect(trigramsServe(['Иванова М'])).toBe(false);
    expect(trigramsServe(['ivanov@m'])).toBe(false);
    expect(trigramsServe(['1С'])).toBe(false);
    expect(trigramsServe(['%%'])).toBe(false);
    expect(trigramsServe([''])).toBe(false);
  });
});

describe('fioWords', () => {
  it('takes at most three words, whatever the spacing', () => {
    expect(fioWords('  Иванова   Мария Петровна Лишнее ')).toEqual(['Иванова', 'Мария', 'Петровна']);
    expect(fioWords(undefined)).toEqual([]);
  });
});
