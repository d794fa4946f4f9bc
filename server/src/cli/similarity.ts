// npm run similarity -- --corpus DIR --check DIR --out FILE.json
// Runs the uniqueness engine of the publications outside the app, on an in-memory index: every .txt
// of the corpus folder is a stored text, every .txt of the check folder a new text checked against
// them (never against each other). See README, section "Uniqueness check on your own texts".
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { MemoryIndex } from '../features/publications/uniqueness/engine.ts';

export interface SimilarityOutput {
  results: Array<{ file: string; uniqueness: number; matches: Array<{ source: string; percent: number; spans: Array<[number, number]> }> }>;
}

function txtFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile() && e.name.toLowerCase().endsWith('.txt'))
    .map((e) => e.name)
    .sort();
}

function readText(file: string): string {
  // A UTF-8 byte-order mark is not part of the text; offsets count from the first character after it.
  return fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, '');
}

export function runSimilarity(corpusDir: string, checkDir: string): SimilarityOutput {
  const index = new MemoryIndex<string>();
  for (const name of txtFiles(corpusDir)) index.add(name, readText(path.join(corpusDir, name)));
  const results: SimilarityOutput['results'] = [];
  for (const name of txtFiles(checkDir)) {
    const r = index.check(readText(path.join(checkDir, name)));
    results.push({ file: name, uniqueness: r.uniqueness, matches: r.matches.map((m) => ({ source: m.source, percent: m.percent, spans: m.spans })) });
  }
  return { results };
}

function main(): void {
  const { values } = parseArgs({ options: { corpus: { type: 'string' }, check: { type: 'string' }, out: { type: 'string' } } });
  if (!values.corpus || !values.check || !values.out) {
    console.error('usage: npm run similarity -- --corpus DIR --check DIR --out FILE.json');
    process.exit(2);
  }
  for (const dir of [values.corpus, values.check]) {
    if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) {
      console.error(`not a folder: ${dir}`);
      process.exit(2);
    }
  }
  const started = performance.now();
  const output = runSimilarity(path.resolve(values.corpus), path.resolve(values.check));
  fs.mkdirSync(path.dirname(path.resolve(values.out)), { recursive: true });
  fs.writeFileSync(values.out, JSON.stringify(output, null, 1));
  console.log(`${output.results.length} texts checked in ${Math.round(performance.now() - started)} ms; results in ${values.out}`);
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) main();
