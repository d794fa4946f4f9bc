import { describe, expect, it } from 'vitest';
import { allFingerprints, CONTENT_K, MAX_REPEATS, queryFingerprints, storedFingerprints, winnow, WINNOW_W } from './fingerprint.ts';
import { tokenize } from './tokenize.ts';

const h = (hi: number, lo = 0) => ({ hash: { hi, lo } });

const prose =
  'Проектная деятельность школьников развивает самостоятельность и умение работать в команде. Учитель выступает ' +
  'наставником, который помогает сформулировать проблему, спланировать работу и оценить результат. Важно, чтобы тема ' +
  'проекта была связана с жизнью ребёнка, с его интересами и вопросами, которые возникают у него на уроках и дома.';

describe('winnowing', () => {
  it('keeps the minimum of every window, the rightmost on ties, each once', () => {
    const items = [h(5), h(3), h(7), h(3), h(9), h(8), h(1), h(6)];
    const picked = winnow(items, 4).map((x) => items.indexOf(x));
    // windows: [5,3,7,3] -> 3 (index 3, rightmost), [3,7,3,9] -> 3, [7,3,9,8] -> 3, [3,9,8,1] -> 1 (6), ...
    expect(picked).toEqual([3, 6]);
  });

  it('compares the low word when the high ones are equal', () => {
    const items = [h(1, 9), h(1, 2), h(1, 5)];
    expect(winnow(items, 3)).toEqual([items[1]]);
  });

  it('selects about 2/(w+1) of the shingles', () => {
    const vocabulary =
      'дом лес река город школа учитель ученик книга урок задача опыт наука поле море гора весна зима лето осень праздник музей театр песня сказка'.split(' ');
    let x = 7;
    const text = Array.from({ length: 3000 }, () => vocabulary[((x = (Math.imul(x, 1664525) + 1013904223) >>> 0) >>> 16) % vocabulary.length]).join(' ');
    const tokens = tokenize(text);
    const ratio = storedFingerprints(tokens).length / allFingerprints(tokens).length;
    expect(ratio).toBeGreaterThan(0.3);
    expect(ratio).toBeLessThan(0.5); // 2 / (4 + 1) = 0.4
  });

  it('guarantees a shared fingerprint for any shared run of w + k - 1 content words', () => {
    const shared = 'методика оценивания учебных достижений обучающихся средней общеобразовательной школы региона';
    expect(shared.split(' ').length).toBeGreaterThanOrEqual(WINNOW_W + CONTENT_K - 1);
    const a = storedFingerprints(tokenize(`Совершенно другое начало статьи про погоду. ${shared}. И другой конец.`));
    const b = queryFingerprints(tokenize(`Вступление о чём-то своём: ${shared}; заключение без повторов.`));
    const bHashes = new Set(b.map((f) => f.hash));
    expect(a.some((f) => bHashes.has(f.hash))).toBe(true);
  });

  it('hashes to signed 64-bit integers, the same for the same words however they are written', () => {
    const a = storedFingerprints(tokenize(prose));
    const b = storedFingerprints(tokenize(prose.toUpperCase().replace(/о/g, 'o')));
    for (const f of a) expect(f.hash >= -(2n ** 63n) && f.hash < 2n ** 63n).toBe(true);
    expect(b.map((f) => f.hash)).toEqual(a.map((f) => f.hash));
    expect(new Set(a.map((f) => f.hash)).size).toBeGreaterThan(a.length / 2);
  });

  it('positions point at the first word of the shingle', () => {
    const tokens = tokenize(prose);
    for (const f of storedFingerprints(tokens)) {
      expect(f.position).toBeGreaterThanOrEqual(0);
      expect(f.position).toBeLessThan(tokens.length);
    }
  });

  it('stores a text that repeats itself with no more rows than an ordinary text (issue 29: «а а а …»)', () => {
    const degenerate = storedFingerprints(tokenize('а '.repeat(20_000)));
    const pasted = storedFingerprints(tokenize(`${prose} `.repeat(200)));
    const ordinary = storedFingerprints(tokenize(prose));
    // Before: one row per word (20 000 - 5) and one per repeated shingle.
    expect(degenerate.length).toBeLessThanOrEqual(MAX_REPEATS);
    expect(pasted.length).toBeLessThanOrEqual(2 * MAX_REPEATS * ordinary.length); // before: 200 times the ordinary text
    for (const list of [degenerate, pasted]) {
      const counts = new Map<bigint, number>();
      for (const f of list) counts.set(f.hash, (counts.get(f.hash) ?? 0) + 1);
      expect(Math.max(...counts.values())).toBeLessThanOrEqual(MAX_REPEATS);
    }
  });
});
