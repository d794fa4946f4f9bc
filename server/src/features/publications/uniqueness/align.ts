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
  /** Places in the source a word of the checked text tries as a seed when its words occur more often there (nearest to the current diagonal first). */
  seedsPerWord: number;
}

export const DEFAULT_ALIGN: AlignOptions = {
  maxGap: 5,
  substitutionPenalty: 0.25,
  indelPenalty: 0.5,
  contentWeight: 1,
  stopWeight: 0.5,
  xDrop: 3,
  minContent: 5,
  minLetters: 40,
  seedsPerWord: 8,
};

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
    score += (isStop ? o.stopWeight : o.contentWeight) - o.substitutionPenalty * Math.min(skippedA, skippedB) - o.indelPenalty * Math.abs(skippedA - skippedB);
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

/**
 * Seed keys. A pair of interned ids is exact below 2^20 (a negative number); a trigram is exact when
 * its three ids are below 2^17 (a number below 2^51) and otherwise folded into [2^51, 2^52), where two
 * trigrams may share a key: seeds are verified against the words themselves.
 */
const TRI = 0x20000;
function pairKey(x: number, y: number): number {
  return -((x & 0xfffff) * 0x100000 + (y & 0xfffff)) - 1;
}
function tripleKey(x: number, y: number, z: number): number {
  if (x < TRI && y < TRI && z < TRI) return (x * TRI + y) * TRI + z;
  return 2 ** 51 + ((x & (TRI - 1)) * TRI + (y & (TRI - 1))) * TRI + (z & (TRI - 1));
}

const allStop = (t: AlignTokens, i: number) => t.stop[i] === 1 && t.stop[i + 1] === 1 && t.stop[i + 2] === 1;
const tri = (t: AlignTokens, i: number) => tripleKey(t.ids[i], t.ids[i + 1], t.ids[i + 2]);

/** The next content word after each word (-1 for none). */
function nextContent(t: AlignTokens): Int32Array {
  const out = new Int32Array(t.ids.length).fill(-1);
  let next = -1;
  for (let i = t.ids.length - 1; i >= 0; i--) {
    out[i] = next;
    if (t.stop[i] === 0) next = i;
  }
  return out;
}

/**
 * The seed index of a checked text, built once for all its candidates: each distinct key (a word
 * trigram holding a content word, a pair of consecutive content words) gets a small id, and each word
 * the ids of the trigram and the pair starting at it (-1 for none), with the words where each key starts.
 */
export interface SeedIndex {
  ids: Map<number, number>;
  tripleAt: Int32Array;
  pairAt: Int32Array;
  positions: number[][];
  nextContent: Int32Array;
}

export function seedIndex(a: AlignTokens): SeedIndex {
  const n = a.ids.length;
  const index: SeedIndex = {
    ids: new Map(),
    tripleAt: new Int32Array(n).fill(-1),
    pairAt: new Int32Array(n).fill(-1),
    positions: [],
    nextContent: nextContent(a),
  };
  const idOf = (k: number, i: number) => {
    let id = index.ids.get(k);
    if (id === undefined) {
      index.ids.set(k, (id = index.positions.length));
      index.positions.push([]);
    }
    index.positions[id].push(i);
    return id;
  };
  for (let i = 0; i + 2 < n; i++) if (!allStop(a, i)) index.tripleAt[i] = idOf(tri(a, i), i);
  const next = index.nextContent;
  for (let i = 0; i < n; i++) if (a.stop[i] === 0 && next[i] >= 0) index.pairAt[i] = idOf(pairKey(a.ids[i], a.ids[next[i]]), i);
  return index;
}

/**
 * The places in `b` of each key of the checked text (ascending, as one flat array cut by `offsets`:
 * no map or array per key), and the words of the checked text where a seed may start. One pass over
 * each text: no step pairs every occurrence of a repeated key in one text with every occurrence in
 * the other.
 */
interface SharedKeys {
  offsets: Int32Array;
  places: Int32Array;
  starts: Uint8Array;
  nextB: Int32Array;
}

function sharedKeys(a: AlignTokens, index: SeedIndex, b: AlignTokens): SharedKeys {
  const m = b.ids.length;
  const nextB = nextContent(b);
  const hitId = new Int32Array(2 * m);
  const hitPlace = new Int32Array(2 * m);
  let hits = 0;
  const hit = (k: number, j: number) => {
    const id = index.ids.get(k);
    if (id === undefined) return;
    hitId[hits] = id;
    hitPlace[hits++] = j;
  };
  for (let j = 0; j + 2 < m; j++) if (!allStop(b, j)) hit(tri(b, j), j);
  for (let j = 0; j < m; j++) if (b.stop[j] === 0 && nextB[j] >= 0) hit(pairKey(b.ids[j], b.ids[nextB[j]]), j);
  const keys = index.positions.length;
  const offsets = new Int32Array(keys + 1);
  for (let h = 0; h < hits; h++) offsets[hitId[h] + 1]++;
  const starts = new Uint8Array(a.ids.length);
  for (let id = 0; id < keys; id++) {
    if (offsets[id + 1] > 0) for (const i of index.positions[id]) starts[i] = 1;
    offsets[id + 1] += offsets[id];
  }
  const places = new Int32Array(hits);
  const fill = offsets.slice(0, keys);
  for (let h = 0; h < hits; h++) places[fill[hitId[h]]++] = hitPlace[h];
  return { offsets, places, starts, nextB };
}

/** The `count` entries of an ascending list nearest to `target` (index of the first one not below it found by bisection). */
function nearest(list: Int32Array, target: number, count: number, out: number[]): void {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  let left = lo - 1;
  let right = lo;
  for (let n = 0; n < count && (left >= 0 || right < list.length); n++) {
    if (right >= list.length || (left >= 0 && target - list[left] <= list[right] - target)) out.push(list[left--]);
    else out.push(list[right++]);
  }
}

/**
 * Where in `b` a seed at word `i` of `a` may start, to try in this order: every place when there are
 * at most `seedsPerWord` (ascending), otherwise the `seedsPerWord` nearest to the diagonal `diagonal`
 * (that of the last borrowed region: a repeated phrase is taken from the copy being followed).
 */
function seedPlaces(
  a: AlignTokens,
  index: SeedIndex,
  b: AlignTokens,
  { offsets, places, nextB }: SharedKeys,
  i: number,
  diagonal: number,
  limit: number,
): number[] {
  const nextA = index.nextContent[i];
  const listOf = (id: number) => (id >= 0 && offsets[id + 1] > offsets[id] ? places.subarray(offsets[id], offsets[id + 1]) : undefined);
  const triple = listOf(index.tripleAt[i]);
  const pair = listOf(index.pairAt[i]);
  const out: number[] = [];
  const total = (triple?.length ?? 0) + (pair?.length ?? 0);
  if (total <= limit) {
    if (triple) out.push(...triple);
    if (pair) out.push(...pair);
    if (triple && pair) out.sort((x, y) => x - y);
  } else {
    if (triple) nearest(triple, i - diagonal, limit, out);
    if (pair) nearest(pair, i - diagonal, limit, out);
    out.sort((x, y) => Math.abs(i - diagonal - x) - Math.abs(i - diagonal - y) || x - y);
    out.length = Math.min(out.length, limit);
  }
  // A folded key may stand for other words: keep the places whose words are the same.
  return out.filter(
    (j) =>
      a.ids[i] === b.ids[j] &&
      ((j + 2 < b.ids.length && a.ids[i + 1] === b.ids[j + 1] && a.ids[i + 2] === b.ids[j + 2]) ||
        (nextA >= 0 && nextB[j] >= 0 && a.ids[nextA] === b.ids[nextB[j]])),
  );
}

/**
 * The regions of `a` (checked text) borrowed from `b` (a source). Work grows with the lengths of the
 * two texts, not with the product of the repetitions of a phrase: each word of `a` tries at most
 * `seedsPerWord` places in `b`, and a word already inside a borrowed region tries none.
 */
export function align(a: AlignTokens, b: AlignTokens, o: AlignOptions = DEFAULT_ALIGN, index: SeedIndex = seedIndex(a)): Region[] {
  const accepted: Region[] = [];
  const tried = new Set<number>();
  const covered = new Uint8Array(a.ids.length);
  const short: Region[] = [];
  const steps = stepOrder(o);
  const shared = sharedKeys(a, index, b);
  let diagonal = 0;
  for (let i = 0; i < a.ids.length; i++) {
    if (!shared.starts[i] || covered[i]) continue;
    for (const j of seedPlaces(a, index, b, shared, i, diagonal, o.seedsPerWord)) {
      if (covered[i]) break;
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
        diagonal = i - j;
      } else {
        if (region.content >= 3) short.push(region);
        for (let k = region.from; k <= region.to; k++) tried.add(k * 0x200000 + (i - j + 0x100000));
      }
    }
  }
  return withNeighbours(accepted, short, a.ids.length, o.maxGap).sort((x, y) => x.from - y.from);
}

/**
 * A short region right next to a borrowed one from the same source is part of the same borrowing (a
 * short sentence among reordered ones); one taken in may take in the next. Each short region is
 * looked up by its ends, so the cost stays near linear in the number of regions.
 */
function withNeighbours(accepted: Region[], short: Region[], words: number, maxGap: number): Region[] {
  if (short.length === 0 || accepted.length === 0) return accepted;
  const taken = new Uint8Array(words);
  for (const r of accepted) taken.fill(1, r.from, r.to + 1);
  const byFrom = short.map((_, k) => k).sort((x, y) => short[x].from - short[y].from);
  const byTo = short.map((_, k) => k).sort((x, y) => short[x].to - short[y].to);
  const firstAtLeast = (order: number[], value: (r: Region) => number, min: number) => {
    let lo = 0;
    let hi = order.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (value(short[order[mid]]) < min) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  const done = new Uint8Array(short.length);
  const queue = [...accepted];
  while (queue.length) {
    const x = queue.pop()!;
    // Short regions starting within maxGap of x's end, or ending within maxGap of its start.
    const near: number[] = [];
    for (let k = firstAtLeast(byFrom, (r) => r.from, x.to - maxGap); k < byFrom.length && short[byFrom[k]].from <= x.to + maxGap; k++) near.push(byFrom[k]);
    for (let k = firstAtLeast(byTo, (r) => r.to, x.from - maxGap); k < byTo.length && short[byTo[k]].to <= x.from + maxGap; k++) near.push(byTo[k]);
    near.sort((p, q) => p - q);
    for (const k of near) {
      if (done[k]) continue;
      const r = short[k];
      let overlaps = false;
      for (let w = r.from; w <= r.to && !overlaps; w++) overlaps = taken[w] === 1;
      if (overlaps) continue;
      done[k] = 1;
      taken.fill(1, r.from, r.to + 1);
      accepted.push(r);
      queue.push(r);
    }
  }
  return accepted;
}
