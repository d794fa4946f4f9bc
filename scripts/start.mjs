#!/usr/bin/env node
// `npm start`: the print converters' system packages (installed when missing, or the command to run
// is printed; the app starts either way and says in its banner what printing can do), the web build,
// then the server.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ensureSystemPackages } from './system-deps.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
if (!process.env.SKIP_SYSTEM_PACKAGES) ensureSystemPackages(['office', 'chromium']);
const run = (args) => spawnSync('npm', args, { cwd: root, stdio: 'inherit' }).status ?? 1;
const built = run(['run', 'build', '-w', 'web']);
if (built !== 0) process.exit(built);
process.exit(run(['run', 'start', '-w', 'server']));
