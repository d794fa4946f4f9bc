#!/usr/bin/env node
// Web weight budget: the JavaScript a visitor downloads to see /login, gzip, at most 250 kB.
// Run after `vite build`: reads dist/.vite/manifest.json, takes the entry chunk, the chunk of the
// lazy login route (found by its source path) and, recursively, their static imports; gzips each
// file once and sums. Exit code 1 when above the budget.
import { readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET = 250 * 1024;
const ROUTE_SOURCES = ['src/features/auth/pages/login-page.tsx'];

const webDir = join(dirname(fileURLToPath(import.meta.url)), '..');
const distDir = join(webDir, 'dist');
const manifestPath = join(distDir, '.vite', 'manifest.json');

if (!existsSync(manifestPath)) {
  console.error(`No ${manifestPath}: run \`vite build\` first (build.manifest must be on).`);
  process.exit(2);
}
/** @type {Record<string, {file: string, isEntry?: boolean, imports?: string[], src?: string}>} */
const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));

const roots = Object.keys(manifest).filter((key) => manifest[key].isEntry);
if (roots.length === 0) {
  console.error('No entry chunk in the manifest.');
  process.exit(2);
}
for (const source of ROUTE_SOURCES) {
  const key = Object.keys(manifest).find((k) => k === source || manifest[k].src === source);
  if (!key) {
    console.error(`The login route chunk (${source}) is not in the manifest: is it still lazy-loaded?`);
    process.exit(2);
  }
  roots.push(key);
}

/** Chunk keys reachable through static imports. */
const seen = new Set();
const stack = [...roots];
while (stack.length > 0) {
  const key = stack.pop();
  if (seen.has(key) || !manifest[key]) continue;
  seen.add(key);
  for (const imported of manifest[key].imports ?? []) stack.push(imported);
}

const files = [...new Set([...seen].map((key) => manifest[key].file).filter((file) => file.endsWith('.js')))];
let total = 0;
const rows = files.map((file) => {
  const raw = readFileSync(join(distDir, file));
  const gz = gzipSync(raw, { level: 9 }).length;
  total += gz;
  return { file, raw: raw.length, gz };
});
rows.sort((a, b) => b.gz - a.gz);

const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
for (const row of rows) console.log(`${kb(row.gz).padStart(10)}  ${row.file} (${kb(row.raw)} raw)`);
console.log(`/login JavaScript: ${kb(total)} gzip in ${rows.length} files; budget ${kb(BUDGET)}.`);
if (total > BUDGET) {
  console.error(`Over budget by ${kb(total - BUDGET)}.`);
  process.exit(1);
}
console.log('Within budget.');
