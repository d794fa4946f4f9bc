// Scores the uniqueness engine on a test set made by make-set.ts (or any folder with corpus/,
// check/ and truth.json): source precision and recall, uniqueness error and character-level
// precision and recall (letters and digits) per kind of check text.
//   npx tsx bench/src/uniqueness/score.ts [--set bench/uniqueness-set] [--result FILE.json]
// Without --result the engine is run in process through the `similarity` command's code.
import fs from 'node:fs';
import path from 'node:path';
import { runSimilarity, type SimilarityOutput } from '../../../server/src/cli/similarity.ts';
import { parseArgs } from '../lib/args.ts';

interface Truth {
  kind: string;
  sources: string[];
  spans: Array<[number, number]>;
  uniqueness: number;
}

const args = parseArgs();
const set = path.resolve(args.string('set', 'bench/uniqueness-set'));
const truth = JSON.parse(fs.readFileSync(path.join(set, 'truth.json'), 'utf8')) as Record<string, Truth>;
const started = performance.now();
const output: SimilarityOutput = args.has('result')
  ? JSON.parse(fs.readFileSync(args.string('result', ''), 'utf8'))
  : runSimilarity(path.join(set, 'corpus'), path.join(set, 'check'));
const elapsed = performance.now() - started;

const WORD = /[\p{L}\p{N}]/u;
function mask(text: string, spans: Array<[number, number]>): Uint8Array {
  const m = new Uint8Array(text.length);
  for (const [s, e] of spans) for (let i = Math.max(0, s); i < Math.min(text.length, e); i++) m[i] = 1;
  return m;
}

interface Acc {
  n: number;
  tp: number;
  fp: number;
  fn: number;
  falseAbove5: number;
  err: number;
  maxErr: number;
  cTp: number;
  cFp: number;
  cFn: number;
}
const acc = new Map<string, Acc>();
const empty = (): Acc => ({ n: 0, tp: 0, fp: 0, fn: 0, falseAbove5: 0, err: 0, maxErr: 0, cTp: 0, cFp: 0, cFn: 0 });
const worst: Array<{ file: string; kind: string; err: number; got: number; want: number }> = [];

for (const r of output.results) {
  const t = truth[r.file];
  if (!t) continue;
  const text = fs.readFileSync(path.join(set, 'check', r.file), 'utf8').replace(/^\uFEFF/, '');
  for (const key of [t.kind, 'all']) {
    const a = acc.get(key) ?? empty();
    acc.set(key, a);
    a.n++;
    const got = new Set(r.matches.map((m) => m.source));
    for (const m of r.matches) {
      if (t.sources.includes(m.source)) a.tp++;
      else {
        a.fp++;
        if (m.percent > 5) a.falseAbove5++;
      }
    }
    for (const s of t.sources) if (!got.has(s)) a.fn++;
    const err = Math.abs(r.uniqueness - t.uniqueness);
    a.err += err;
    a.maxErr = Math.max(a.maxErr, err);
    const want = mask(text, t.spans);
    const have = mask(
      text,
      r.matches.flatMap((m) => m.spans),
    );
    for (let i = 0; i < text.length; i++) {
      if (!WORD.test(text[i])) continue;
      if (have[i] && want[i]) a.cTp++;
      else if (have[i]) a.cFp++;
      else if (want[i]) a.cFn++;
    }
    if (key === 'all') worst.push({ file: r.file, kind: t.kind, err, got: r.uniqueness, want: t.uniqueness });
  }
}

const f3 = (x: number) => (Number.isFinite(x) ? x.toFixed(3) : '—');
const rows = [...acc.entries()].sort((x, y) => (x[0] === 'all' ? 1 : y[0] === 'all' ? -1 : x[0].localeCompare(y[0])));
const lines = [
  '| kind | texts | source precision | source recall | false sources > 5 % | mean uniqueness error | max error | char precision | char recall |',
  '|---|---|---|---|---|---|---|---|---|',
  ...rows.map(
    ([k, a]) =>
      `| ${k} | ${a.n} | ${f3(a.tp / (a.tp + a.fp))} | ${f3(a.tp / (a.tp + a.fn))} | ${a.falseAbove5} | ${(a.err / a.n).toFixed(2)} | ${a.maxErr.toFixed(2)} | ${f3(a.cTp / (a.cTp + a.cFp))} | ${f3(a.cTp / (a.cTp + a.cFn))} |`,
  ),
];
console.log(lines.join('\n'));
console.log(`\n${output.results.length} texts checked in ${Math.round(elapsed)} ms (index and check, one process)`);
if (args.flag('worst')) {
  worst.sort((x, y) => y.err - x.err);
  for (const w of worst.slice(0, 12)) console.log(`${w.file} ${w.kind}: got ${w.got}, want ${w.want}`);
}
