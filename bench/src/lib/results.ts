import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** bench/results (git-ignored). */
export const resultsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../results');

export function resultsPath(name: string): string {
  fs.mkdirSync(resultsDir, { recursive: true });
  return path.join(resultsDir, name);
}

/** Writes `<prefix>-<timestamp>.json` and `<prefix>-latest.json`; returns the first path. */
export function writeResult(prefix: string, data: unknown): string {
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const text = JSON.stringify(data, null, 2) + '\n';
  const file = resultsPath(`${prefix}-${stamp}.json`);
  fs.writeFileSync(file, text);
  fs.writeFileSync(resultsPath(`${prefix}-latest.json`), text);
  return file;
}

export function readLatest<T>(prefix: string): T | null {
  const file = path.join(resultsDir, `${prefix}-latest.json`);
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as T) : null;
}

/** Prints rows as an aligned text table. */
export function printTable(header: string[], rows: Array<Array<string | number>>): void {
  const cells = [header, ...rows.map((r) => r.map(String))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of cells.slice(1)) console.log(line(r));
}

/** The newest result of a load scenario (by key, at that many connections) across bench/results/load-*.json. */
export function latestScenario(key: string, connections: number): { rps: number; file: string } | null {
  if (!fs.existsSync(resultsDir)) return null;
  const files = fs
    .readdirSync(resultsDir)
    .filter((f) => /^load-\d.*\.json$/.test(f))
    .sort()
    .reverse();
  for (const f of files) {
    const data = JSON.parse(fs.readFileSync(path.join(resultsDir, f), 'utf8')) as {
      results?: Array<{ key?: string; scenario: string; rps: number; connections: number }>;
    };
    // Files from before scenario keys: "a. GET /api/get" was the api-get scenario.
    const hit = data.results?.find(
      (r) => r.connections === connections && (r.key === key || (r.key === undefined && key === 'api-get' && r.scenario === 'a. GET /api/get')),
    );
    if (hit) return { rps: hit.rps, file: f };
  }
  return null;
}
