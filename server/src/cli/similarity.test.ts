import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runSimilarity } from './similarity.ts';

const stored =
  'Основу леса составляют деревья. Ель хорошо переносит тень и со временем вытесняет светолюбивые берёзу и осину. ' +
  'Однако после пожара или вырубки первыми на освободившемся месте появляются именно лиственные породы.';
const own = 'Мой дедушка каждое лето брал меня на рыбалку, и я до сих пор помню запах костра и утренний туман над водой.';
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'similarity-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('similarity command', () => {
  it('checks every .txt of the check folder against every .txt of the corpus and writes the spans', () => {
    fs.mkdirSync(path.join(dir, 'corpus'));
    fs.mkdirSync(path.join(dir, 'check'));
    fs.writeFileSync(path.join(dir, 'corpus', 'forest.txt'), stored);
    fs.writeFileSync(path.join(dir, 'corpus', 'notes.md'), stored);
    const text = `${own}\n${stored}`;
    fs.writeFileSync(path.join(dir, 'check', 'b.txt'), `\uFEFF${text}`);
    fs.writeFileSync(path.join(dir, 'check', 'a.txt'), own);
    const out = runSimilarity(path.join(dir, 'corpus'), path.join(dir, 'check'));
    expect(out.results.map((r) => r.file)).toEqual(['a.txt', 'b.txt']);
    expect(out.results[0]).toEqual({ file: 'a.txt', uniqueness: 100, matches: [] });
    const b = out.results[1];
    expect(b.matches.map((m) => m.source)).toEqual(['forest.txt']);
    expect(b.matches[0].spans).toEqual([[own.length + 1, text.length]]);
    expect(b.uniqueness).toBeGreaterThan(25);
    expect(b.uniqueness).toBeLessThan(45);
    expect(b.matches[0].percent).toBeCloseTo(100 - b.uniqueness, 2);
  });

  it('runs as npm run similarity and refuses missing folders', () => {
    const outFile = path.join(dir, 'out.json');
    const root = path.resolve(import.meta.dirname, '../../..');
    execFileSync('npx', ['tsx', 'server/src/cli/similarity.ts', '--corpus', path.join(dir, 'corpus'), '--check', path.join(dir, 'check'), '--out', outFile], {
      cwd: root,
    });
    expect(JSON.parse(fs.readFileSync(outFile, 'utf8')).results).toHaveLength(2);
    expect(() =>
      execFileSync('npx', ['tsx', 'server/src/cli/similarity.ts', '--corpus', path.join(dir, 'none'), '--check', dir, '--out', outFile], {
        cwd: root,
        stdio: 'pipe',
      }),
    ).toThrow();
  });
});
