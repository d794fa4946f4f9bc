// Builds the uniqueness test set (bench/uniqueness-set/) from real Russian prose shipped in Debian
// packages: the Debian FAQ, the New Maintainers' Guide, the Developer's Reference and the GIMP manual
// (apt-get install debian-faq-ru maint-guide-ru developers-reference-ru gimp-help-ru mythes-ru), and
// the texts in bench/uniqueness-set/own/ written for this set. Synonyms come from the LibreOffice
// Russian thesaurus (mythes-ru). Deterministic for a seed.
//   npx tsx bench/src/uniqueness/make-set.ts [--seed 12] [--out bench/uniqueness-set]
import fs from 'node:fs';
import path from 'node:path';
import snowball from 'snowball-stemmers';
import { parseArgs } from '../lib/args.ts';
import { Random } from '../lib/random.ts';

const args = parseArgs();
const rnd = new Random(args.number('seed', 12));
const out = path.resolve(args.string('out', 'bench/uniqueness-set'));

const SOURCES: Array<{ topic: string; dir: string; ext: RegExp }> = [
  { topic: 'debian-faq', dir: '/usr/share/doc/debian/FAQ/ru', ext: /\.html$/ },
  { topic: 'maint-guide', dir: '/usr/share/doc/maint-guide-ru/html', ext: /\.html$/ },
  { topic: 'dev-reference', dir: '/usr/share/developers-reference/ru', ext: /\.html$/ },
  { topic: 'gimp', dir: '/usr/share/gimp/2.0/help/ru', ext: /\.html$/ },
];

const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  laquo: '«',
  raquo: '»',
  mdash: '—',
  ndash: '–',
  hellip: '…',
};

function paragraphs(html: string): string[] {
  const body = html.replace(/<(script|style|pre)[\s\S]*?<\/\1>/gi, ' ');
  const out: string[] = [];
  for (const m of body.matchAll(/<p[\s>][\s\S]*?<\/p>/gi)) {
    const text = m[0]
      .replace(/<[^>]+>/g, '')
      .replace(/&(#\d+|#x[0-9a-f]+|\w+);/gi, (e, n: string) =>
        n[0] === '#' ? String.fromCodePoint(n[1] === 'x' || n[1] === 'X' ? parseInt(n.slice(2), 16) : Number(n.slice(1))) : (ENTITIES[n] ?? e),
      )
      .replace(/\s+/g, ' ')
      .trim();
    const letters = text.match(/\p{L}/gu)?.length ?? 0;
    const cyr = text.match(/\p{Script=Cyrillic}/gu)?.length ?? 0;
    if (text.length >= 120 && cyr >= 0.7 * letters && /[.!?…]$/.test(text)) out.push(text);
  }
  return out;
}

interface Doc {
  topic: string;
  paras: string[];
}

function collect(): Doc[] {
  const docs: Doc[] = [];
  const seen = new Map<string, number>();
  const raw: Array<{ topic: string; paras: string[] }> = [];
  for (const s of SOURCES) {
    if (!fs.existsSync(s.dir)) throw new Error(`${s.dir} is missing: apt-get install debian-faq-ru maint-guide-ru developers-reference-ru gimp-help-ru`);
    // The one-page editions and the tables of contents repeat the chapters.
    for (const f of fs
      .readdirSync(s.dir)
      .filter((n) => s.ext.test(n) && !/^(index|developers-reference)\b/.test(n))
      .sort()) {
      const paras = paragraphs(fs.readFileSync(path.join(s.dir, f), 'utf8'));
      for (const p of paras) for (const sent of sentences(p)) seen.set(sent, (seen.get(sent) ?? 0) + 1);
      raw.push({ topic: s.topic, paras });
    }
  }
  const ownDir = path.join(out, 'own');
  if (fs.existsSync(ownDir)) {
    for (const f of fs
      .readdirSync(ownDir)
      .filter((n) => n.endsWith('.txt'))
      .sort()) {
      const paras = fs
        .readFileSync(path.join(ownDir, f), 'utf8')
        .split(/\n\s*\n/)
        .map((p) => p.replace(/\s+/g, ' ').trim())
        .filter(Boolean);
      raw.push({ topic: `own-${f.replace(/-\d+\.txt$/, '')}`, paras });
    }
  }
  // Sentences found more than once (boilerplate) would make the ground truth ambiguous: drop them.
  for (const r of raw) {
    const paras = r.paras
      .map((p) =>
        sentences(p)
          .filter((s) => (seen.get(s) ?? 0) <= 1)
          .join(' '),
      )
      .filter((p) => p.length >= 100);
    if (paras.length) docs.push({ topic: r.topic, paras });
  }
  return docs;
}

/** Runs of four stemmed words with at least two long ones: what a shared phrase looks like. */
function grams(text: string, n = 4): string[] {
  const w = (
    text
      .toLowerCase()
      .replace(/ё/g, 'е')
      .match(/[\p{L}\p{N}]+/gu) ?? []
  ).map((x) => russian.stem(x));
  const out: string[] = [];
  for (let i = 0; i + n <= w.length; i++) {
    const g = w.slice(i, i + n);
    if (g.filter((x) => x.length >= 4).length >= 2) out.push(g.join(' '));
  }
  return out;
}

function sentences(p: string): string[] {
  return p.split(/(?<=[.!?…])\s+(?=[«"(]?[А-ЯЁA-Z0-9])/u).filter(Boolean);
}

/** Texts of 3 000 - 9 000 characters from consecutive paragraphs of one document. */
function texts(docs: Doc[]): Array<{ topic: string; text: string }> {
  const outTexts: Array<{ topic: string; text: string }> = [];
  for (const d of docs) {
    if (d.topic.startsWith('own-')) {
      outTexts.push({ topic: d.topic, text: d.paras.join('\n\n') });
      continue;
    }
    let cur: string[] = [];
    let len = 0;
    let target = rnd.int(3000, 9000);
    for (const p of d.paras) {
      cur.push(p);
      len += p.length + 2;
      if (len >= target) {
        outTexts.push({ topic: d.topic, text: cur.join('\n\n') });
        cur = [];
        len = 0;
        target = rnd.int(3000, 9000);
      }
    }
    if (len >= 3000) outTexts.push({ topic: d.topic, text: cur.join('\n\n') });
  }
  return outTexts;
}

// ---- synonyms (mythes-ru) ----
const russian = snowball.newStemmer('russian');
function loadThesaurus(): Map<string, string[]> {
  const file = '/usr/share/mythes/th_ru_RU_v2.dat';
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const byStem = new Map<string, string[]>();
  for (let i = 1; i < lines.length; i++) {
    const [word, count] = lines[i].split('|');
    const n = Number(count);
    if (!word || !Number.isInteger(n)) continue;
    const syns: string[] = [];
    for (let k = 1; k <= n; k++) {
      const parts = (lines[i + k] ?? '').split('|').slice(1);
      for (const s of parts) if (/^[а-яё]+$/.test(s) && s !== word) syns.push(s);
    }
    i += n;
    if (!/^[а-яё]+$/.test(word) || syns.length === 0) continue;
    const st = russian.stem(word.replace(/ё/g, 'е'));
    const list = byStem.get(st) ?? [];
    for (const s of syns) if (russian.stem(s.replace(/ё/g, 'е')) !== st && !list.includes(s)) list.push(s);
    byStem.set(st, list);
  }
  return byStem;
}

/** Replaces content words that have a thesaurus synonym (keeping the ending of the original form). */
function rewrite(text: string, thesaurus: Map<string, string[]>, share: number): { text: string; replaced: number; words: number } {
  let replaced = 0;
  let words = 0;
  const result = text.replace(/[А-ЯЁа-яё]+/g, (w) => {
    if (w.length < 4) return w;
    words++;
    const lower = w.toLowerCase().replace(/ё/g, 'е');
    const st = russian.stem(lower);
    const syns = thesaurus.get(st);
    if (!syns || syns.length === 0 || !rnd.chance(share)) return w;
    const ending = lower.slice(st.length);
    const syn = rnd.pick(syns);
    const synStem = russian.stem(syn.replace(/ё/g, 'е'));
    let replacement = ending ? synStem + ending : syn;
    if (w[0] !== w[0].toLowerCase()) replacement = replacement[0].toUpperCase() + replacement.slice(1);
    replaced++;
    return replacement;
  });
  return { text: result, replaced, words };
}

// ---- obfuscation: Latin look-alikes, soft hyphens, zero-width spaces ----
const LATIN: Record<string, string> = {
  а: 'a',
  е: 'e',
  о: 'o',
  р: 'p',
  с: 'c',
  у: 'y',
  х: 'x',
  А: 'A',
  Е: 'E',
  О: 'O',
  Р: 'P',
  С: 'C',
  Т: 'T',
  Н: 'H',
  К: 'K',
  М: 'M',
  В: 'B',
};
function obfuscate(text: string): string {
  let s = '';
  for (const ch of text) {
    if (LATIN[ch] && rnd.chance(0.15)) s += LATIN[ch];
    else s += ch;
    if (/[а-яё]/.test(ch) && rnd.chance(0.01)) s += rnd.pick(['\u00AD', '\u200B', '\u200D']);
  }
  return s;
}

// ---- check texts with ground truth ----
interface Piece {
  text: string;
  source?: string;
}
interface Truth {
  kind: string;
  sources: string[];
  spans: Array<[number, number]>;
  uniqueness: number;
  note?: string;
}

function assemble(pieces: Piece[], sep = ' '): { text: string; truth: Omit<Truth, 'kind' | 'note'> } {
  let text = '';
  const spans: Array<[number, number]> = [];
  const sources = new Set<string>();
  for (const p of pieces) {
    if (text) text += /\n$/.test(p.text) ? '' : sep;
    const start = text.length;
    text += p.text;
    if (p.source) {
      sources.add(p.source);
      const last = spans[spans.length - 1];
      if (last && last[1] === start - sep.length && pieces.indexOf(p) > 0) last[1] = text.length;
      else spans.push([start, text.length]);
    }
  }
  const letters = (s: string) => s.match(/[\p{L}\p{N}]/gu)?.length ?? 0;
  const borrowed = spans.reduce((n, [s, e]) => n + letters(text.slice(s, e)), 0);
  return { text, truth: { sources: [...sources].sort(), spans, uniqueness: Math.round(10000 * (1 - borrowed / letters(text))) / 100 } };
}

function sentenceRun(text: string, minChars: number, maxChars: number): string {
  const sents = sentences(text.replace(/\n\n/g, ' '));
  const start = rnd.int(0, Math.max(0, sents.length - 3));
  let s = '';
  for (let k = start; k < sents.length && s.length < minChars + rnd.int(0, maxChars - minChars); k++) s += (s ? ' ' : '') + sents[k];
  return s;
}

function main() {
  const docs = collect();
  const all = texts(docs);
  // Shuffle, then split into stored texts and fresh texts (never stored: original material).
  for (let i = all.length - 1; i > 0; i--) {
    const j = rnd.int(0, i);
    [all[i], all[j]] = [all[j], all[i]];
  }
  const corpus = all.slice(0, Math.min(120, Math.floor(all.length * 0.6)));
  // Fresh texts are the 'own' material of the checks: a sentence sharing four consecutive stemmed words with
  // a stored text (the manuals reuse sentence templates) is dropped, so the ground truth holds.
  const stored = new Set<string>();
  for (const c of corpus) for (const g of grams(c.text)) stored.add(g);
  const fresh = all
    .slice(corpus.length)
    .map((f) => ({
      topic: f.topic,
      text: f.text
        .split('\n\n')
        .map((p) =>
          sentences(p)
            .filter((s) => !grams(s).some((g) => stored.has(g)))
            .join(' '),
        )
        .filter(Boolean)
        .join('\n\n'),
    }))
    .filter((f) => f.text.length >= 2000);
  const thesaurus = loadThesaurus();
  fs.rmSync(path.join(out, 'corpus'), { recursive: true, force: true });
  fs.rmSync(path.join(out, 'check'), { recursive: true, force: true });
  fs.mkdirSync(path.join(out, 'corpus'), { recursive: true });
  fs.mkdirSync(path.join(out, 'check'), { recursive: true });
  const names = corpus.map((c, i) => `${c.topic}-${String(i + 1).padStart(3, '0')}.txt`);
  corpus.forEach((c, i) => fs.writeFileSync(path.join(out, 'corpus', names[i]), c.text));

  const truth: Record<string, Truth> = {};
  let n = 0;
  let freshNext = 0;
  const nextFresh = () => fresh[freshNext++ % fresh.length];
  const srcIdx = () => rnd.int(0, corpus.length - 1);
  const write = (kind: string, text: string, t: Omit<Truth, 'kind'>) => {
    const file = `check-${String(++n).padStart(3, '0')}.txt`;
    fs.writeFileSync(path.join(out, 'check', file), text);
    truth[file] = { kind, ...t };
  };
  const PER_KIND = args.number('per-kind', 10);

  for (let c = 0; c < PER_KIND; c++) {
    // Original text on the same topic as stored ones: nothing borrowed.
    const f = nextFresh();
    write('original-same-topic', f.text, { sources: [], spans: [], uniqueness: 100 });
  }
  for (let c = 0; c < PER_KIND; c++) {
    const i = srcIdx();
    const a = assemble([{ text: corpus[i].text.replace(/\n\n/g, '\n\n'), source: names[i] }]);
    write('full-copy', a.text, a.truth);
  }
  for (let c = 0; c < PER_KIND; c++) {
    // A copy disguised with Latin look-alikes, soft hyphens and zero-width characters.
    const i = srcIdx();
    const text = obfuscate(corpus[i].text);
    write('obfuscated-copy', text, { sources: [names[i]], spans: [[0, text.length]], uniqueness: 0 });
  }
  for (let c = 0; c < PER_KIND; c++) {
    // Own text with runs of sentences from 2-4 stored texts.
    const f = nextFresh();
    const own = sentences(f.text.replace(/\n\n/g, ' '));
    const pieces: Piece[] = [];
    const k = rnd.int(2, 4);
    const chunk = Math.max(2, Math.floor(own.length / (k + 1)));
    for (let q = 0; q <= k; q++) {
      pieces.push({ text: own.slice(q * chunk, (q + 1) * chunk).join(' ') });
      if (q < k) {
        const i = srcIdx();
        pieces.push({ text: sentenceRun(corpus[i].text, 300, 1500), source: names[i] });
      }
    }
    const a = assemble(pieces.filter((p) => p.text));
    write('partial-multi-source', a.text, a.truth);
  }
  for (let c = 0; c < PER_KIND; c++) {
    // The sentences of one stored text, shuffled.
    const i = srcIdx();
    const sents = sentences(corpus[i].text.replace(/\n\n/g, ' '));
    for (let q = sents.length - 1; q > 0; q--) {
      const j = rnd.int(0, q);
      [sents[q], sents[j]] = [sents[j], sents[q]];
    }
    const a = assemble(sents.map((s) => ({ text: s, source: names[i] })));
    write('sentence-reorder', a.text, a.truth);
  }
  for (let c = 0; c < PER_KIND; c++) {
    // A stored text with a quarter of its sentences deleted and own sentences inserted between the rest.
    const i = srcIdx();
    const sents = sentences(corpus[i].text.replace(/\n\n/g, ' ')).filter(() => !rnd.chance(0.25));
    const own = sentences(nextFresh().text.replace(/\n\n/g, ' '));
    const pieces: Piece[] = [];
    let o = 0;
    for (const s of sents) {
      pieces.push({ text: s, source: names[i] });
      if (rnd.chance(0.25) && o < own.length) pieces.push({ text: own[o++] });
    }
    const a = assemble(pieces);
    write('deletions-insertions', a.text, a.truth);
  }
  for (let c = 0; c < PER_KIND; c++) {
    // Heavy synonym rewriting of a stored text: most content words that have a synonym are replaced.
    const i = srcIdx();
    const r = rewrite(corpus[i].text, thesaurus, 0.9);
    write('synonym-rewrite', r.text, {
      sources: [names[i]],
      spans: [[0, r.text.length]],
      uniqueness: 0,
      note: `${r.replaced} of ${r.words} words of 4+ letters replaced`,
    });
  }
  for (let c = 0; c < PER_KIND; c++) {
    // Part of a stored text rewritten with synonyms, inside own text.
    const f = nextFresh();
    const i = srcIdx();
    const own = sentences(f.text.replace(/\n\n/g, ' '));
    const half = Math.floor(own.length / 2);
    const r = rewrite(sentenceRun(corpus[i].text, 800, 2000), thesaurus, 0.7);
    const a = assemble([{ text: own.slice(0, half).join(' ') }, { text: r.text, source: names[i] }, { text: own.slice(half).join(' ') }]);
    write('synonym-partial', a.text, { ...a.truth, note: `${r.replaced} of ${r.words} words of 4+ letters replaced` });
  }
  fs.writeFileSync(path.join(out, 'truth.json'), JSON.stringify(truth, null, 1));
  const counts = Object.values(truth).reduce<Record<string, number>>((m, t) => ((m[t.kind] = (m[t.kind] ?? 0) + 1), m), {});
  console.log(`${corpus.length} stored texts (${all.length} in all, ${fresh.length} fresh); checks:`, counts);
}

main();
