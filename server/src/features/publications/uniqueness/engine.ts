// The uniqueness check on text alone: analyse a text, pick candidate sources by shared fingerprints,
// align the text with each candidate and measure what is borrowed. Uniqueness is the share of the
// checked text's letters and digits found in no source (Antiplagiat's definition). Used by the
// database repository (server), the durable job and the `similarity` command alike.
import { align, DEFAULT_ALIGN, seedIndex, type AlignOptions, type AlignTokens, type Region } from './align.ts';
import { hash32, packFingerprints, queryFingerprints, storedFingerprints, type Fingerprint, type Fingerprints } from './fingerprint.ts';
import { tokenize, type Token } from './tokenize.ts';
import { publicationPlainText } from './plain-text.ts';

export interface AnalysedText {
  text: string;
  tokens: Token[];
  /** Letters and digits of the whole text. */
  letters: number;
}

export type Span = [start: number, end: number];
export type SourceId = string | number;

export interface SourceMatch<Id extends SourceId = SourceId> {
  source: Id;
  /** Share of the checked text's letters and digits found in this source, 0-100. */
  percent: number;
  /** Indexes of the checked text's words found in this source. */
  words: number[];
  /** UTF-16 offsets into the checked text, end exclusive. */
  spans: Span[];
}

export interface CheckResult<Id extends SourceId = SourceId> {
  /** 0-100, two decimals. */
  uniqueness: number;
  /** Sources with their share, largest first. */
  matches: SourceMatch<Id>[];
  /** Words of the checked text found in any source, and their character spans. */
  words: number[];
  spans: Span[];
}

export interface CandidateOptions {
  /** A hash shared by more stored texts than this is a stock phrase and is skipped. */
  maxPostings: number;
  /** Distinct shared hashes a stored text needs to be aligned. */
  minShared: number;
  /**
   * `minChain` of them must also lie close together on one alignment diagonal: within `chainWords`
   * words of the checked text, their offsets in the two texts differing by at most `chainSlack`
   * words. Hashes a text shares only by chance, or through one stock phrase, are too few or scattered.
   */
  minChain: number;
  chainWords: number;
  chainSlack: number;
  /** At most this many candidates are aligned, the ones sharing most first. */
  maxCandidates: number;
}

export const DEFAULT_CANDIDATES: CandidateOptions = { maxPostings: 100, minShared: 3, minChain: 3, chainWords: 60, chainSlack: 20, maxCandidates: 30 };

export function analyse(text: string): AnalysedText {
  const tokens = tokenize(text);
  let letters = 0;
  for (const t of tokens) letters += t.letters;
  return { text, tokens, letters };
}

export { storedFingerprints, queryFingerprints, type Fingerprint, type Fingerprints };

/**
 * A checked text in the form that crosses a thread boundary (typed arrays and plain objects, no
 * tokens): what the alignment, the spans and the index need of it.
 */
export interface PreparedText {
  text: string;
  /** Letters and digits of the whole text. */
  letters: number;
  /** Stem code of each word (see StemCodes). */
  codes: StemCodes;
  /** UTF-16 offsets of each word, end exclusive, and its letters and digits. */
  starts: Int32Array;
  ends: Int32Array;
  wordLetters: Int32Array;
  /** Winnowed fingerprints: looked up (query) and stored for the text (stored). */
  query: Fingerprints;
  stored: Fingerprints;
}

/** Analyses a text once for its check and its index entry. */
export function prepareText(text: string): PreparedText {
  const { tokens, letters } = analyse(text);
  const n = tokens.length;
  const starts = new Int32Array(n);
  const ends = new Int32Array(n);
  const wordLetters = new Int32Array(n);
  for (let k = 0; k < n; k++) {
    starts[k] = tokens[k].start;
    ends[k] = tokens[k].end;
    wordLetters[k] = tokens[k].letters;
  }
  return {
    text,
    letters,
    codes: stemCodes(tokens),
    starts,
    ends,
    wordLetters,
    query: packFingerprints(queryFingerprints(tokens)),
    stored: packFingerprints(storedFingerprints(tokens)),
  };
}

/** A hash of the checked text (at `checkPosition`) stored for a text (at `position`). */
export interface Posting<Id extends SourceId> {
  hash: bigint;
  source: Id;
  checkPosition: number;
  position: number;
}

/**
 * Candidates from the postings of the checked text's hashes: hashes with too many postings are
 * dropped; a stored text needs enough distinct shared hashes, enough of them chained on one diagonal;
 * the texts sharing most hashes come first.
 */
export function selectCandidates<Id extends SourceId>(postings: Posting<Id>[], o: CandidateOptions = DEFAULT_CANDIDATES): Id[] {
  const perHash = new Map<bigint, Set<Id>>();
  for (const p of postings) {
    let set = perHash.get(p.hash);
    if (!set) perHash.set(p.hash, (set = new Set()));
    set.add(p.source);
  }
  const bySource = new Map<Id, Posting<Id>[]>();
  for (const p of postings) {
    if (perHash.get(p.hash)!.size > o.maxPostings) continue;
    const list = bySource.get(p.source);
    if (list) list.push(p);
    else bySource.set(p.source, [p]);
  }
  const ranked: Array<{ id: Id; shared: number }> = [];
  for (const [id, list] of bySource) {
    const shared = new Set(list.map((p) => p.hash)).size;
    if (shared < o.minShared) continue;
    list.sort((x, y) => x.checkPosition - y.checkPosition);
    let chained = false;
    for (let x = 0; x < list.length && !chained; x++) {
      const hashes = new Set([list[x].hash]);
      const diagonal = list[x].checkPosition - list[x].position;
      for (let y = x + 1; y < list.length && list[y].checkPosition - list[x].checkPosition <= o.chainWords; y++) {
        if (Math.abs(list[y].checkPosition - list[y].position - diagonal) <= o.chainSlack) hashes.add(list[y].hash);
      }
      chained = hashes.size >= o.minChain;
    }
    if (chained) ranked.push({ id, shared });
  }
  return ranked
    .sort((x, y) => y.shared - x.shared || String(x.id).localeCompare(String(y.id)))
    .slice(0, o.maxCandidates)
    .map((r) => r.id);
}

/**
 * What alignment needs of a stored text, one 32-bit word per token: the hash of its stem with the
 * lowest bit replaced by 1 for a function word. Stored beside the fingerprints (4 bytes a word), so a
 * check does not load, tokenise and stem its candidates' texts again.
 */
export type StemCodes = Int32Array;

const STEM_SEED = 0x5bd1e995;
const stemHashes = new Map<string, number>();

function stemCode(t: Token): number {
  let h = stemHashes.get(t.stem);
  if (h === undefined) {
    h = hash32(t.stem, STEM_SEED) & ~1;
    if (stemHashes.size >= 200_000) stemHashes.clear();
    stemHashes.set(t.stem, h);
  }
  return h | (t.stop ? 1 : 0);
}

export function stemCodes(tokens: Token[]): StemCodes {
  const out = new Int32Array(tokens.length);
  for (let i = 0; i < tokens.length; i++) out[i] = stemCode(tokens[i]);
  return out;
}

/** Little-endian bytes of stem codes (a bytea column) and back. */
export function stemCodesToBytes(codes: StemCodes): Uint8Array {
  const bytes = new Uint8Array(codes.length * 4);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < codes.length; i++) view.setInt32(i * 4, codes[i], true);
  return bytes;
}

export function stemCodesFromBytes(bytes: Uint8Array): StemCodes {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = new Int32Array(Math.floor(bytes.byteLength / 4));
  for (let i = 0; i < out.length; i++) out[i] = view.getInt32(i * 4, true);
  return out;
}

/** Interns stem codes into small ids (the seed keys of align.ts hold 20 bits of an id). */
class Interner {
  private ids = new Map<number, number>();
  codes(codes: StemCodes): AlignTokens {
    const ids = new Int32Array(codes.length);
    const stop = new Uint8Array(codes.length);
    for (let i = 0; i < codes.length; i++) {
      const key = codes[i] & ~1;
      let id = this.ids.get(key);
      if (id === undefined) this.ids.set(key, (id = this.ids.size));
      ids[i] = id;
      stop[i] = codes[i] & 1;
    }
    return { ids, stop };
  }
}

/**
 * A source to compare with: its stored stem codes, or its text (one indexed before the codes were
 * stored), plain or as the stored HTML (its plain text is taken where the comparison runs).
 */
export type CompareSource<Id extends SourceId> = { id: Id; codes: StemCodes } | { id: Id; text: string } | { id: Id; html: string };

function sourceCodes<Id extends SourceId>(source: CompareSource<Id>): StemCodes {
  if ('codes' in source) return source.codes;
  return stemCodes(analyse('html' in source ? publicationPlainText(source.html) : source.text).tokens);
}

const OPENING = /[«„“"'([]/u;
const CLOSING = /[.!?…»”"')\]]/u;

/** Character spans of covered words: neighbours with only spaces and punctuation between them are joined. */
export function spansOf(text: string, words: { starts: Int32Array; ends: Int32Array }, covered: Uint8Array): Span[] {
  const spans: Span[] = [];
  const count = words.starts.length;
  let i = 0;
  while (i < count) {
    if (!covered[i]) {
      i++;
      continue;
    }
    let j = i;
    while (j + 1 < count && covered[j + 1]) j++;
    let start = words.starts[i];
    let end = words.ends[j];
    while (start > 0 && OPENING.test(text[start - 1])) start--;
    while (end < text.length && CLOSING.test(text[end])) end++;
    const last = spans[spans.length - 1];
    if (last && !/[\p{L}\p{N}]/u.test(text.slice(last[1], start))) last[1] = end;
    else spans.push([start, end]);
    i = j + 1;
  }
  return spans;
}

/** Punctuation (or a line break) between two words that ends a clause. */
const CLAUSE_END = /[.,;:!?…\n]/u;

/**
 * Clauses of the checked text as runs of words between clause punctuation: for each word, the first
 * and the last content word of its clause (-1 when the clause has none).
 */
export interface Clauses {
  /** The last word of the clause. */
  end: Int32Array;
  firstContent: Int32Array;
  lastContent: Int32Array;
}

export function clausesOf(check: Pick<PreparedText, 'text' | 'starts' | 'ends' | 'codes'>): Clauses {
  const count = check.starts.length;
  const c: Clauses = { end: new Int32Array(count), firstContent: new Int32Array(count), lastContent: new Int32Array(count) };
  let from = 0;
  for (let k = 0; k < count; k++) {
    const last = k === count - 1 || CLAUSE_END.test(check.text.slice(check.ends[k], check.starts[k + 1]));
    if (!last) continue;
    let first = -1;
    let lastContent = -1;
    for (let w = from; w <= k; w++) {
      if ((check.codes[w] & 1) === 0) {
        if (first < 0) first = w;
        lastContent = w;
      }
    }
    c.end.fill(k, from, k + 1);
    c.firstContent.fill(first, from, k + 1);
    c.lastContent.fill(lastContent, from, k + 1);
    from = k + 1;
  }
  return c;
}

/**
 * Regions kept as borrowed: a region that covers the content words of no whole clause of the checked
 * text (a stock phrase across a sentence boundary: "правой кнопкой мыши. В контекстном меню") is
 * dropped, unless it is part of a longer borrowed run (another region of the same source within
 * `maxGap` words) or long itself (twice `minContent` content words: a text without punctuation).
 */
export function withoutStrayPhrases(regions: Region[], clauses: Clauses, o: AlignOptions): Region[] {
  const sorted = [...regions].sort((x, y) => x.from - y.from);
  return sorted.filter((r, k) => {
    if (r.content >= 2 * o.minContent) return true;
    const prev = sorted[k - 1];
    const next = sorted[k + 1];
    if ((prev && r.from - prev.to <= o.maxGap) || (next && next.from - r.to <= o.maxGap)) return true;
    for (let w = r.from; w <= r.to; w = clauses.end[w] + 1) {
      if (clauses.firstContent[w] >= r.from && clauses.lastContent[w] >= 0 && clauses.lastContent[w] <= r.to) return true;
    }
    return false;
  });
}

function round2(x: number): number {
  return Math.round(x * 100) / 100;
}

/**
 * Aligns the checked text with each source and measures what is borrowed. Each borrowed word is
 * attributed to one source, the one that covers most of the text among those containing it (as a
 * report of borrowings lists each fragment once); a source is reported only when the words
 * attributed to it hold enough content words, so a stock phrase shared by many texts does not list
 * them all. A source's percent is the share of the text found in it, attributed or not.
 */
export function compare<Id extends SourceId>(check: PreparedText, sources: Array<CompareSource<Id>>, o: AlignOptions = DEFAULT_ALIGN): CheckResult<Id> {
  const interner = new Interner();
  const a = interner.codes(check.codes);
  const count = check.codes.length;
  const isStop = (k: number) => (check.codes[k] & 1) === 1;
  const index = seedIndex(a);
  const clauses = clausesOf(check);
  const found: Array<{ id: Id; covered: Uint8Array; letters: number }> = [];
  for (const source of sources) {
    const codes = sourceCodes(source);
    const regions: Region[] = withoutStrayPhrases(align(a, interner.codes(codes), o, index), clauses, o);
    if (regions.length === 0) continue;
    const covered = new Uint8Array(count);
    let letters = 0;
    for (const r of regions) {
      for (let k = r.from; k <= r.to; k++) {
        if (!covered[k]) letters += check.wordLetters[k];
        covered[k] = 1;
      }
    }
    found.push({ id: source.id, covered, letters });
  }
  found.sort((x, y) => y.letters - x.letters || String(x.id).localeCompare(String(y.id)));

  const owner = new Int32Array(count).fill(-1);
  const exclusiveContent = new Array<number>(found.length).fill(0);
  const exclusiveLetters = new Array<number>(found.length).fill(0);
  found.forEach((f, s) => {
    for (let k = 0; k < owner.length; k++) {
      if (!f.covered[k] || owner[k] !== -1) continue;
      owner[k] = s;
      exclusiveLetters[s] += check.wordLetters[k];
      if (!isStop(k)) exclusiveContent[s]++;
    }
  });
  const reported = found.map((_, s) => exclusiveContent[s] >= o.minContent && exclusiveLetters[s] >= o.minLetters);

  const matches: SourceMatch<Id>[] = [];
  found.forEach((f, s) => {
    if (!reported[s]) return;
    const words: number[] = [];
    for (let k = 0; k < f.covered.length; k++) if (f.covered[k]) words.push(k);
    matches.push({ source: f.id, percent: check.letters ? round2((100 * f.letters) / check.letters) : 0, words, spans: spansOf(check.text, check, f.covered) });
  });
  matches.sort((x, y) => y.percent - x.percent || String(x.source).localeCompare(String(y.source)));

  const any = new Uint8Array(count);
  const words: number[] = [];
  let borrowed = 0;
  for (let k = 0; k < owner.length; k++) {
    // A word counts as borrowed when a reported source contains it.
    if (!found.some((f, s) => reported[s] && f.covered[k])) continue;
    any[k] = 1;
    words.push(k);
    borrowed += check.wordLetters[k];
  }
  const uniqueness = check.letters ? round2(100 - (100 * borrowed) / check.letters) : 100;
  return { uniqueness, matches, words, spans: spansOf(check.text, check, any) };
}

/**
 * The two heavy steps of a check, the work a caller hands over: analysing the checked text, and
 * aligning it with the candidates. The app runs them in worker threads (uniqueness-pool.ts); the
 * `similarity` command, the bench and tests may run them in process.
 */
export interface UniquenessWork {
  prepare(text: string): Promise<PreparedText>;
  /** A stored publication text (HTML): its plain text prepared. */
  prepareHtml(html: string): Promise<PreparedText>;
  /** The candidates from the postings the candidate query found (CandidatePostings). */
  select(postings: CandidatePostings, o: CandidateOptions): Promise<number[]>;
  compare(check: PreparedText, sources: Array<CompareSource<number>>): Promise<CheckResult<number>>;
}

export const inProcessWork: UniquenessWork = {
  prepare: async (text) => prepareText(text),
  prepareHtml: async (html) => prepareText(publicationPlainText(html)),
  select: async (postings, o) => selectFromCompact(postings, o),
  compare: async (check, sources) => compare(check, sources),
};

/**
 * Postings as the candidate query sends them, one text per query chunk: `source,hash,checkPosition,position`
 * rows joined by ';' (a few strings instead of tens of thousands of row objects and BigInts on the
 * request thread; parsed where the selection runs).
 */
export type CandidatePostings = string[];

export function parseCompactPostings(chunks: CandidatePostings): Array<Posting<number>> {
  const out: Array<Posting<number>> = [];
  for (const chunk of chunks) {
    if (!chunk) continue;
    for (const row of chunk.split(';')) {
      const [source, hash, checkPosition, position] = row.split(',');
      out.push({ source: Number(source), hash: BigInt(hash), checkPosition: Number(checkPosition), position: Number(position) });
    }
  }
  return out;
}

export const selectFromCompact = (chunks: CandidatePostings, o: CandidateOptions): number[] => selectCandidates(parseCompactPostings(chunks), o);

/** An index of stored texts held in memory: the `similarity` command and tests. */
export class MemoryIndex<Id extends SourceId = string> {
  private postings = new Map<bigint, Array<{ source: Id; position: number }>>();
  private texts = new Map<Id, { codes: StemCodes; stored: Fingerprint[] }>();

  add(id: Id, text: string): void {
    this.remove(id);
    const { tokens } = analyse(text);
    const entry = { codes: stemCodes(tokens), stored: storedFingerprints(tokens) };
    this.texts.set(id, entry);
    for (const f of entry.stored) {
      const list = this.postings.get(f.hash);
      if (list) list.push({ source: id, position: f.position });
      else this.postings.set(f.hash, [{ source: id, position: f.position }]);
    }
  }

  remove(id: Id): void {
    const old = this.texts.get(id);
    if (!old) return;
    this.texts.delete(id);
    for (const f of old.stored) {
      const list = this.postings.get(f.hash);
      if (!list) continue;
      const kept = list.filter((p) => p.source !== id);
      if (kept.length) this.postings.set(f.hash, kept);
      else this.postings.delete(f.hash);
    }
  }

  get size(): number {
    return this.texts.size;
  }

  check(text: string, opts: { exclude?: Id; candidates?: CandidateOptions; align?: AlignOptions } = {}): CheckResult<Id> {
    const prepared = prepareText(text);
    const postings: Posting<Id>[] = [];
    const { hashes, positions } = prepared.query;
    for (let k = 0; k < hashes.length; k++) {
      for (const p of this.postings.get(hashes[k]) ?? []) {
        if (p.source !== opts.exclude) postings.push({ hash: hashes[k], source: p.source, checkPosition: positions[k], position: p.position });
      }
    }
    const ids = selectCandidates(postings, opts.candidates);
    return compare(
      prepared,
      ids.map((id) => ({ id, codes: this.texts.get(id)!.codes })),
      opts.align,
    );
  }
}
