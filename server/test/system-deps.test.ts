import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Issue 19: `npm ci && npm start` on a fresh machine prints too. scripts/start.mjs asks
// scripts/system-deps.mjs for LibreOffice, its UNO bridge, the fonts and Chromium; as root with
// apt-get it installs what is missing, otherwise it prints the one command to run. Each case runs
// the helper in its own node process with the file checks, the user id and apt-get stood in for.

const helper = path.resolve(import.meta.dirname, '../../scripts/system-deps.mjs');

interface Outcome {
  result: boolean;
  printed: string;
  spawned: string[][];
}

/** Runs ensureSystemPackages(['office', 'chromium']) as `uid`, with `present` files and apt-get that installs when `installs`. */
function run(o: { uid: number; present: (file: string) => boolean; installs?: boolean }): Outcome {
  const script = `
    import fs from 'node:fs';
    import cp from 'node:child_process';
    import { syncBuiltinESMExports } from 'node:module';
    const present = ${o.present.toString()};
    let installed = false;
    const spawned = [];
    fs.existsSync = (file) => (installed && file !== '/usr/bin/apt-get') || present(String(file));
    cp.spawnSync = (cmd, args) => {
      spawned.push([cmd, ...args]);
      if (args[0] === 'install') installed = ${Boolean(o.installs)};
      return { status: 0 };
    };
    syncBuiltinESMExports();
    process.getuid = () => ${o.uid};
    const printed = [];
    console.log = (...a) => printed.push(a.join(' '));
    const { ensureSystemPackages } = await import(${JSON.stringify(helper)});
    const result = ensureSystemPackages(['office', 'chromium']);
    process.stdout.write(JSON.stringify({ result, printed: printed.join('\\n'), spawned }));
  `;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })) as Outcome;
}

const PACKAGES = 'libreoffice-writer-nogui python3-uno fonts-liberation2 fonts-crosextra-carlito chromium';

describe('npm start: the print packages', () => {
  it('not root: prints the one command that installs what is missing, and installs nothing', () => {
    const out = run({ uid: 1000, present: (f) => f === '/usr/bin/apt-get' });
    expect(out.result).toBe(false);
    expect(out.spawned).toEqual([]);
    expect(out.printed).toContain('Для печати документов не хватает системных пакетов');
    expect(out.printed).toContain(`sudo apt-get update && sudo apt-get install -y --no-install-recommends ${PACKAGES}`);
  });

  it('root with apt-get: installs what is missing the way npm test does', () => {
    const out = run({ uid: 0, present: (f) => f === '/usr/bin/apt-get' || f === '/usr/bin/chromium', installs: true });
    expect(out.result).toBe(true);
    expect(out.spawned).toEqual([
      ['apt-get', 'update', '-qq'],
      ['apt-get', 'install', '-y', '-qq', '--no-install-recommends', 'libreoffice-writer-nogui', 'python3-uno', 'fonts-liberation2', 'fonts-crosextra-carlito'],
    ]);
  });

  it('everything present: nothing printed, nothing installed', () => {
    const out = run({ uid: 0, present: () => true });
    expect(out).toEqual({ result: true, printed: '', spawned: [] });
  });
});
