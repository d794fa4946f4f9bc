// A stop leaves nothing behind (issue 32): the real server is started as `npm start` starts it, prints
// a document through LibreOffice and one through Chromium, gets SIGTERM the way a service manager
// sends it, and once it has exited no process it started is left: no soffice.bin or oosplash (they
// live in process groups of their own), no Chromium, no npm, tsx or node. A SIGKILLed server leaves
// no converter either (the LibreOffice bridge watches its parent; Chromium ends with its pipe).
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { OfficeConverterPool } from '../src/platform/converters/office-converter.ts';

const root = path.resolve(import.meta.dirname, '../..');
const officeMissing = new OfficeConverterPool({ size: 1 }).missing() !== null;
const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

interface Proc {
  pid: number;
  ppid: number;
  pgid: number;
  state: string;
  /** Clock ticks since boot: with the pid, names the process even if the pid is reused later. */
  start: string;
  comm: string;
  cmdline: string;
}

function readProc(pid: number): Proc | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid pgrp ...": comm may hold spaces and parentheses.
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const f = stat
      .slice(close + 2)
      .trim()
      .split(' ');
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replaceAll('\0', ' ').trim();
    return { pid, ppid: Number(f[1]), pgid: Number(f[2]), state: f[0], start: f[19], comm, cmdline };
  } catch {
    return null;
  }
}

function allProcs(): Proc[] {
  return readdirSync('/proc')
    .filter((n) => /^\d+$/.test(n))
    .flatMap((n) => readProc(Number(n)) ?? []);
}

/** The process `pid` and everything below it, with the members of process groups started below it. */
function tree(pid: number): Proc[] {
  const procs = allProcs();
  const found = new Map<number, Proc>();
  const walk = (p: number) => {
    for (const c of procs) {
      if ((c.pid === p || c.ppid === p) && !found.has(c.pid)) {
        found.set(c.pid, c);
        if (c.pid !== p) walk(c.pid);
      }
    }
  };
  walk(pid);
  const groups = new Set([...found.values()].map((p) => p.pgid));
  for (const p of procs) if (groups.has(p.pgid) && !found.has(p.pid)) found.set(p.pid, p);
  return [...found.values()];
}

/** Still running: the same process (pid and start time), not a zombie waiting to be reaped. */
function alive(p: Proc): boolean {
  const now = readProc(p.pid);
  return now !== null && now.start === p.start && now.state !== 'Z' && now.state !== 'X';
}

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'edu-shutdown-'));
/** Every process seen in a started server's tree: a failed run must not leave them to the next ones. */
const seen: Proc[] = [];
afterAll(async () => {
  for (const p of seen) if (alive(p)) process.kill(p.pid, 'SIGKILL');
  await fs.rm(dataDir, { recursive: true, force: true });
});

/** Starts `args` in a process group of its own, as a service manager does; resolves once the start banner is out. */
async function startServer(cmd: string, args: string[], env: Record<string, string>) {
  const port = await freePort();
  const child = spawn(cmd, args, {
    cwd: root,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: 'development',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      DEMO_PASSWORD: 'demo1234',
      OFFICE_CONVERTERS: '1',
      CHROMIUM_PATH: chromium,
      LOG_LEVEL: 'info',
      ...env,
    },
  });
  let output = '';
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => resolve({ code, signal })),
  );
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Демо-пользователь')) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then(() => reject(new Error(`the server exited before it started:\n${output}`)));
  });
  return { child, base: `http://127.0.0.1:${port}`, exited, output: () => output };
}

async function printAll(base: string): Promise<void> {
  const login = await fetch(`${base}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'demo-user@example.com', password: 'demo1234' }),
  });
  expect(login.status).toBe(200);
  const headers = { authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}` };
  const entries = (await (await fetch(`${base}/api/entry?per_page=15`, { headers })).json()) as { data: { id: number; status: number }[] };
  // A completed entry has its certificate (a .docx template: LibreOffice); any has the registration list (HTML: Chromium).
  const done = entries.data.find((e) => e.status === 3);
  expect(done).toBeDefined();
  for (const url of [`/api/entry/${done!.id}/print/certificate`, `/api/entry/${entries.data[0].id}/print/registration-list`]) {
    const link = await fetch(base + url, { headers });
    expect(link.status, url).toBe(200);
    const pdf = await fetch(base + ((await link.json()) as { url: string }).url, { headers });
    expect(pdf.status, url).toBe(200);
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
      url,
    ).toBe('%PDF-');
  }
}

/** Prints, stops the server with `signal` (to its process group or its main process), and returns the processes it had that are still running. */
async function printThenStop(server: Awaited<ReturnType<typeof startServer>>, target: 'group' | 'main', signal: NodeJS.Signals = 'SIGTERM') {
  await printAll(server.base);
  const pid = server.child.pid!;
  const before = tree(pid);
  seen.push(...before);
  // The test must be able to fail: the converters are there to be left behind.
  expect(before.map((p) => p.comm)).toEqual(expect.arrayContaining(['soffice.bin', 'oosplash', 'chromium']));
  process.kill(target === 'group' ? -pid : pid, signal);
  const exit = await server.exited;
  // SIGKILLed processes may take a moment to be gone; a left-over never goes.
  const deadline = Date.now() + 10_000;
  let left = before.filter(alive);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    left = left.filter(alive);
  }
  return { exit, left: left.map((p) => `${p.pid} ${p.comm}: ${p.cmdline.slice(0, 120)}`), output: server.output() };
}

// The servers started here run on their own PGlite: the suite's PostgreSQL run (TEST_DB=postgres) would only repeat them.
describe.skipIf(officeMissing || !existsSync(chromium) || process.env.TEST_DB === 'postgres')('stopping the server', () => {
  it('SIGTERM to the process group of `npm run start -w server` ends LibreOffice and Chromium too', async () => {
    const server = await startServer('npm', ['run', 'start', '-w', 'server'], {});
    const { left, output } = await printThenStop(server, 'group');
    expect(left).toEqual([]);
    expect(output).toContain('"msg":"stopping"');
    expect(output).not.toContain('the stop took too long');
  }, 300_000);

  it('SIGTERM to `npm start` alone (systemd KillMode=mixed) is passed on, and the server stops cleanly', async () => {
    const server = await startServer('node', ['scripts/start.mjs'], { SKIP_SYSTEM_PACKAGES: '1', SKIP_WEB_BUILD: '1' });
    const { exit, left, output } = await printThenStop(server, 'main');
    expect(left).toEqual([]);
    expect(exit).toEqual({ code: 0, signal: null });
    expect(output).toContain('"msg":"stopping"');
  }, 300_000);

  it('a server killed with SIGKILL (no clean-up at all) leaves no LibreOffice or Chromium either', async () => {
    // The server's own node process, as the service's main process would be: nothing of it runs.
    const server = await startServer(process.execPath, ['--import', 'tsx', 'server/src/main.ts'], {});
    const { exit, left } = await printThenStop(server, 'main', 'SIGKILL');
    expect(exit.signal).toBe('SIGKILL');
    expect(left).toEqual([]);
  }, 300_000);
});
