#!/usr/bin/env node
// `npm start`: the print converters' system packages (installed when missing, or the command to run
// is printed; the app starts either way and says in its banner what printing can do), the web build,
// then the server.
//
// The server runs as a child node process of this one (`node --import tsx`, what the server's own
// `npm start` runs through npm and `sh -c`, which would not pass a signal on), in a process group of
// its own like the web build. A stop signal (SIGTERM from a service manager, SIGINT from Ctrl-C,
// SIGHUP) is passed on to that group, and this process exits when the server has: the server stops
// cleanly, its LibreOffice and Chromium included (server/src/main.ts), whether the signal came to
// this process alone (systemd's KillMode=mixed) or to its whole process group.
// `SKIP_WEB_BUILD=1` serves the web build already there.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureSystemPackages } from './system-deps.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
if (!process.env.SKIP_SYSTEM_PACKAGES) ensureSystemPackages(['office', 'chromium']);

let child = null;
let stopSignal = null;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (stopSignal) return;
    stopSignal = signal;
    try {
      if (child) process.kill(-child.pid, signal);
    } catch {
      /* the step has just ended */
    }
  });
}

const run = (cmd, args, cwd = root) =>
  new Promise((resolve) => {
    child = spawn(cmd, args, { cwd, stdio: 'inherit', detached: true });
    child.on('error', () => resolve(1));
    child.on('exit', (code, signal) => {
      child = null;
      resolve(code ?? (signal ? 128 : 1));
    });
  });

if (!process.env.SKIP_WEB_BUILD) {
  const built = await run('npm', ['run', 'build', '-w', 'web']);
  if (built !== 0 || stopSignal) process.exit(stopSignal ? 0 : built);
}
if (stopSignal) process.exit(0);
process.exit(await run(process.execPath, ['--import', 'tsx', 'src/main.ts'], path.join(root, 'server')));
