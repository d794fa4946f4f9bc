// Alignment of a checked text against one candidate source, on word stems. Seeds are places where
// both texts share three consecutive words or two consecutive content words; each seed is extended
// in both directions word by word, stepping over small gaps (a replaced synonym, an inserted or
// deleted word) with a penalty and stopping when the score falls too far below its best (X-drop, as
// in BLAST). A region is kept when it holds enough matched content words.

export interface AlignTokens {
  /** Interned stems. */
  ids: Int32Array;
  /** 1 for a function word. */
  stop: Uint8Array;
}

export interface AlignOptions {
  /** Largest number of words skipped on each side in one step. */
  maxGap: number;
  /** Penalty per pair of words skipped on both sides (a replaced word, e.g. a synonym). */
  substitutionPenalty: number;
  /** Penalty per word skipped on one side only (an inserted or deleted word). */
  indelPenalty: number;
  /** Gain of a matched content word and of a matched function word. */
  contentWeight: number;
  stopWeight: number;
  /** The extension stops when the score falls this far below its best. */
  xDrop: number;
  /** Matched content words a region needs to count as borrowed. */
  minContent: number;
  /** Letters and digits a source's attributed words need for the source to be reported. */
  minLetters: number;
}

export const DEFAULT_ALIGN: AlignOptions = { maxGap: 5, substitutionPenalty: 0.25, indelPenalty: 0.5, contentWeight: 1, stopWeight: 0.5, xDrop: 3, minContent: 5, minLetters: 40 };

/** A run of the checked text (word indexes, inclusive) aligned to a run of the source. */
export interface Region {
  from: number;
  to: number;
  sourceFrom: number;
  sourceTo: number;
  /** Matched words, and of them content words. */
  matched: number;
  content: number;
}

interface Extension {
  i: number;
  j: number;
  gain: number;
  matched: number;
  content: number;
}

/** Words skipped on each side of one step (flattened pairs), cheapest first. */
function stepOrder(o: AlignOptions): Int32Array {
  const pairs: Array<[number, number]> = [];
  for (let sa = 0; sa <= o.maxGap; sa++) for (let sb = 0; sb <= o.maxGap; sb++) pairs.push([sa, sb]);
  const cost = ([sa, sb]: [number, number]) => o.substitutionPenalty * Math.min(sa, sb) + o.indelPenalty * Math.abs(sa - sb);
  pairs.sort((x, y) => cost(x) - cost(y) || x[0] + x[1] - (y[0] + y[1]) || x[0] - y[0]);
  return Int32Array.from(pairs.flat());
}

function extend(a: AlignTokens, b: AlignTokens, i0: number, j0: number, dir: 1 | -1, o: AlignOptions, steps: Int32Array): Extension {
  const n = a.ids.length;
  const m = b.ids.length;
  let ci = i0;
  let cj = j0;
  let score = 0;
  let matched = 0;
  let content = 0;
  let best: Extension = { i: i0, j: j0, gain: 0, matched: 0, content: 0 };
  for (;;) {
    let found = false;
    let na = 0;
    let nb = 0;
    // The cheapest step first: a replaced word costs less than an inserted or deleted one.
    for (let k = 0; k < steps.length; k += 2) {
      const ni = ci + dir * (steps[k] + 1);
      const nj = cj + dir * (steps[k + 1] + 1);
      if (ni < 0 || nj < 0 || ni >= n || nj >= m) continue;
      if (a.ids[ni] === b.ids[nj]) {
        na = ni;
        nb = nj;
        found = true;
        break;
      }
    }
    if (!found) break;
    const skippedA = Math.abs(na - ci) - 1;
    const skippedB = Math.abs(nb - cj) - 1;
    const isStop = a.stop[na] === 1;
    score +=
      (isStop ? o.stopWeight : o.contentWeight) - o.substitutionPenalty * Math.min(skippedA, skippedB) - o.indelPenalty * Math.abs(skippedA - skippedB);
    ci = na;
    cj = nb;
    matched++;
    if (!isStop) content++;
    // A region ends on a content word or on a function word right next to the previous match: a lone
    // function word found across a gap ('... и ...') is too weak to move the boundary.
    if (score > best.gain && (!isStop || (skippedA === 0 && skippedB === 0))) best = { i: ci, j: cj, gain: score, matched, content };
    else if (best.gain - score > o.xDrop) break;
  }
  return best;
}

/** Exact numbers for a pair of interned ids (below 2^20 within one check) and for a triple (the third id in part). */
function pairKey(x: number, y: number): number {
  return -((x & 0xfffff) * 0x100000 + (y & 0xfffff)) - 1;
}
function tripleKey(x: number, y: number, z: number): number {
  return ((x & 0xfffff) * 0x100000 + (y & 0xfffff)) * 0x2000 + (z & 0x1fff);
}

const contentIndexes = (t: AlignTokens) => {
  const out: number[] = [];
  for (let i = 0; i < t.ids.length; i++) if (t.stop[i] === 0) out.push(i);
  return out;
};
const tri = (t: AlignTokens, i: number) => tripleKey(t.ids[i], t.ids[i + 1], t.ids[i + 2]);

/**
 * The seed index of a checked text, built once for all its candidates: the positions of its word
 * trigrams that hold a content word and of its pairs of consecutive content words.
 */
export interface SeedIndex {
  positions: Map<number, number[]>;
}

export function seedIndex(a: AlignTokens): SeedIndex {
  const positions = new Map<number, number[]>();
  const add = (k: number, i: number) => {
    const list = positions.get(k);
    if (list) list.push(i);
    else positions.set(k, [i]);
  };
  for (let i = 0; i + 2 < a.ids.length; i++) {
    if (a.stop[i] && a.stop[i + 1] && a.stop[i + 2]) continue;
    add(tri(a, i), i);
  }
  const ac = contentIndexes(a);
  for (let q = 0; q + 1 < ac.length; q++) add(pairKey(a.ids[ac[q]], a.ids[ac[q + 1]]), ac[q]);
  return { positions };
}

/** Seeds: (i, j) pairs starting a shared word trigram with a content word, or a shared pair of consecutive content words. */
function seeds(a: AlignTokens, index: SeedIndex, b: AlignTokens): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (let j = 0; j + 2 < b.ids.length; j++) {
    if (b.stop[j] && b.stop[j + 1] && b.stop[j + 2]) continue;
    const list = index.positions.get(tri(b, j));
    if (list) for (const i of list) if (a.ids[i + 2] === b.ids[j + 2]) out.push([i, j]);
  }
  const bc = contentIndexes(b);
  for (let q = 0; q + 1 < bc.length; q++) {
    const list = index.positions.get(pairKey(b.ids[bc[q]], b.ids[bc[q + 1]]));
    if (list) for (const i of list) out.push([i, bc[q]]);
  }
  out.sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  return out;
}

/** The regions of `a` (checked text) borrowed from `b` (a source). */
export function align(a: AlignTokens, b: AlignTokens, o: AlignOptions = DEFAULT_ALIGN, index: SeedIndex = seedIndex(a)): Region[] {
  const accepted: Region[] = [];
  const tried = new Set<number>();
  const covered = new Uint8Array(a.ids.length);
  const short: Region[] = [];
  const steps = stepOrder(o);
  for (const [i, j] of seeds(a, index, b)) {
    if (covered[i]) continue;
    if (tried.has(i * 0x200000 + (i - j + 0x100000))) continue;
    const fwd = extend(a, b, i, j, 1, o, steps);
    const back = extend(a, b, i, j, -1, o, steps);
    const seedContent = a.stop[i] === 0 ? 1 : 0;
    const region: Region = {
      from: back.i,
      to: fwd.i,
      sourceFrom: back.j,
      sourceTo: fwd.j,
      matched: back.matched + fwd.matched + 1,
      content: back.content + fwd.content + seedContent,
    };
    if (region.content >= o.minContent) {
      accepted.push(region);
      covered.fill(1, region.from, region.to + 1);
    } else {
      if (region.content >= 3) short.push(region);
      for (let k = region.from; k <= region.to; k++) tried.add(k * 0x200000 + (i - j + 0x100000));
    }
  }
  // A short region right next to a borrowed one from the same source is part of the same borrowing
  // (a short sentence among reordered ones).
  for (let grew = true; grew; ) {
    grew = false;
    for (const r of short) {
      if (accepted.includes(r) || accepted.some((x) => r.from <= x.to && r.to >= x.from)) continue;
      if (accepted.some((x) => Math.abs(r.from - x.to) <= o.maxGap || Math.abs(x.from - r.to) <= o.maxGap)) {
        accepted.push(r);
        grew = true;
      }
    }
  }
  return accepted.sort((x, y) => x.from - y.from);
}
