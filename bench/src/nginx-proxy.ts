// deploy/nginx.conf, tested (issue 32): nginx (Debian's package) with that very file, its ports and
// paths replaced, in front of two instances of the app sharing one fresh PostgreSQL database and one
// DATA_DIR; then through nginx: a login, an upload past nginx's default body limit (an 8 MB avatar),
// the stored file read back twice (round-robin: once from each instance), a print through LibreOffice
// and one through Chromium, an operator's import dry run followed to its end (its calls kept on one
// instance), the cache headers of a built asset, and the stop of one instance with requests going
// on through the other. Prints a line per check; exits 1 when one failed, 2 when
// nginx is not installed.
//
//   TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npx tsx bench/src/nginx-proxy.ts
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import sharp from 'sharp';

const root = path.resolve(import.meta.dirname, '../..');
const NGINX = ['/usr/sbin/nginx', '/usr/bin/nginx'].find((p) => existsSync(p));
if (!NGINX) {
  console.log('nginx is not installed (apt-get install -y nginx): nothing tested');
  process.exit(2);
}
const adminUrl = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

const work = mkdtempSync(path.join(os.tmpdir(), 'edu-nginx-'));
const dataDir = path.join(work, 'data');
const dbName = `edu_nginx_${process.pid}`;
const dbUrl = withDatabase(adminUrl, dbName);
/** The instances (each leads its process group) and nginx: killed if the run fails half-way. */
const children: { child: ChildProcess; group: boolean }[] = [];
let failed = 0;

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

function check(name: string, ok: boolean, detail = ''): void {
  if (!ok) failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${detail ? `: ${detail}` : ''}`);
}

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise((resolve) => srv.close(resolve));
  return port;
}

/** One instance as deploy/edu-cabinet@.service runs it; resolves once it has printed its start banner. */
async function startInstance(port: number): Promise<{ child: ChildProcess; exited: Promise<number | null>; log: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: path.join(root, 'server'),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      NODE_ENV: 'development',
      DATABASE_URL: dbUrl,
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      TRUST_PROXY: '127.0.0.1',
      DEMO_PASSWORD: 'demo1234',
      OFFICE_CONVERTERS: '1',
      LOG_LEVEL: 'warn',
    },
  });
  children.push({ child, group: true });
  let log = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('Демо-пользователь')) resolve();
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    void exited.then(() => reject(new Error(`the instance on ${port} exited before it started:\n${log}`)));
  });
  return { child, exited, log: () => log };
}

/** deploy/nginx.conf with the instances' ports, a listen address and the web build's folder of this run. */
function renderNginx(listen: number, ports: [number, number], webDist: string): string {
  const site = readFileSync(path.join(root, 'deploy/nginx.conf'), 'utf8');
  const rendered = site
    .replaceAll('server 127.0.0.1:8081 ', `server 127.0.0.1:${ports[0]} `)
    .replaceAll('server 127.0.0.1:8082 ', `server 127.0.0.1:${ports[1]} `)
    .replace('listen 80;', `listen 127.0.0.1:${listen};`)
    .replace('root /opt/edu-cabinet/web/dist;', `root ${webDist};`);
  for (const [what, changed] of [
    ['ports', !rendered.includes(':8081') && !rendered.includes(':8082')],
    ['listen', rendered.includes(`listen 127.0.0.1:${listen};`)],
    ['root', rendered.includes(`root ${webDist};`)],
  ] as const)
    if (!changed) throw new Error(`deploy/nginx.conf changed: could not set its ${what}`);
  const prefix = path.join(work, 'nginx');
  mkdirSync(path.join(prefix, 'logs'), { recursive: true });
  writeFileSync(path.join(prefix, 'site.conf'), rendered);
  // What Debian's /etc/nginx/nginx.conf gives a site, with this run's own files.
  const main = `daemon off;
worker_processes 1;
pid ${prefix}/nginx.pid;
error_log ${prefix}/logs/error.log warn;
events { worker_connections 256; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  sendfile on;
  log_format upstream '$request_method $uri $status $upstream_addr';
  access_log ${prefix}/logs/access.log upstream;
  client_body_temp_path ${prefix}/client_body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  include ${prefix}/site.conf;
}
`;
  writeFileSync(path.join(prefix, 'nginx.conf'), main);
  return prefix;
}

async function main(): Promise<void> {
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${dbName}`);
  await admin.query(`create database ${dbName}`);
  await admin.end();

  const ports: [number, number] = [await freePort(), await freePort()];
  // Both at once: migrations and the seed take an advisory lock.
  const [a, b] = await Promise.all(ports.map((p) => startInstance(p)));
  console.log(`instances on ${ports.join(' and ')}, database ${dbName}, DATA_DIR ${dataDir}`);

  // The built web app when there is one; else a folder with one hashed-looking asset.
  let webDist = path.join(root, 'web/dist');
  let asset: string | null = null;
  if (!existsSync(path.join(webDist, 'index.html'))) {
    webDist = path.join(work, 'dist');
    mkdirSync(path.join(webDist, 'assets'), { recursive: true });
    writeFileSync(path.join(webDist, 'assets/index-bench123.js'), 'console.log(1);\n');
    asset = '/assets/index-bench123.js';
  }
  const listen = await freePort();
  const prefix = renderNginx(listen, ports, webDist);
  const conf = path.join(prefix, 'nginx.conf');
  const test = spawnSync(NGINX!, ['-t', '-p', prefix, '-c', conf], { encoding: 'utf8' });
  check('nginx -t accepts the rendered deploy/nginx.conf', test.status === 0, test.stderr.trim().split('\n').at(-1));
  if (test.status !== 0) return;
  const nginx = spawn(NGINX!, ['-p', prefix, '-c', conf], { stdio: 'inherit' });
  children.push({ child: nginx, group: false });
  const base = `http://127.0.0.1:${listen}`;
  for (let i = 0; ; i++) {
    const up = await fetch(`${base}/api/health`).catch(() => null);
    if (up?.ok) break;
    if (i > 100) throw new Error('nginx did not answer');
    await new Promise((r) => setTimeout(r, 100));
  }

  // Login.
  const login = await fetch(`${base}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'demo-user@example.com', password: 'demo1234' }),
  });
  check('login through nginx', login.status === 200, `HTTP ${login.status}`);
  const headers = { authorization: `Bearer ${((await login.json()) as { access_token: string }).access_token}` };
  const me = (await (await fetch(`${base}/api/get`, { headers })).json()) as { id: number };

  // Upload: an 8 MB PNG (noise does not compress), past nginx's default 1 MB body limit.
  const png = await sharp({ create: { width: 1700, height: 1700, channels: 3, noise: { type: 'gaussian', mean: 128, sigma: 40 }, background: '#808080' } })
    .png({ compressionLevel: 0 })
    .toBuffer();
  const form = new FormData();
  form.append('file', new Blob([png], { type: 'image/png' }), 'avatar.png');
  const upload = await fetch(`${base}/api/user/${me.id}/upload-avatar`, { method: 'POST', headers, body: form });
  const uploaded = (await upload.json()) as { data?: { avatar_url?: string | null } };
  check(`upload of ${(png.length / 1024 / 1024).toFixed(1)} MB through nginx`, upload.status === 200, `HTTP ${upload.status}`);
  const avatar = uploaded.data?.avatar_url ?? null;
  if (avatar) {
    // Round-robin: two reads land on both instances, which share DATA_DIR.
    const reads = await Promise.all([0, 1].map(async () => (await fetch(new URL(avatar, base), { headers })).status));
    check(
      'the stored file read back twice through nginx',
      reads.every((s) => s === 200),
      reads.join(', '),
    );
  } else check('the upload answer names the stored file', false, JSON.stringify(uploaded).slice(0, 200));

  // Prints: a completed entry's certificate (.docx: LibreOffice), an entry's registration list (HTML: Chromium).
  const entries = (await (await fetch(`${base}/api/entry?per_page=15`, { headers })).json()) as { data: { id: number; status: number }[] };
  const done = entries.data.find((e) => e.status === 3);
  for (const [what, url] of [
    ['certificate (LibreOffice)', done ? `/api/entry/${done.id}/print/certificate` : null],
    ['registration list (Chromium)', `/api/entry/${entries.data[0]?.id}/print/registration-list`],
  ] as const) {
    if (!url) {
      check(`print of the ${what}`, false, 'no completed entry in the demo data');
      continue;
    }
    const started = performance.now();
    const link = await fetch(base + url, { headers });
    const pdf = link.ok ? await fetch(base + ((await link.json()) as { url: string }).url, { headers }) : null;
    const bytes = pdf?.ok ? Buffer.from(await pdf.arrayBuffer()) : Buffer.alloc(0);
    check(
      `print of the ${what} through nginx`,
      bytes.subarray(0, 5).toString() === '%PDF-',
      `HTTP ${link.status}/${pdf?.status ?? '-'}, ${bytes.length} bytes in ${Math.round(performance.now() - started)} ms`,
    );
  }

  // The operators' import: its state lives on the instance that took the file; every poll of it must
  // reach that instance (round-robin alone sends every other poll to the one that answers 404).
  const operatorLogin = await fetch(`${base}/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'demo-operator@example.com', password: 'demo1234' }),
  });
  const operator = { authorization: `Bearer ${((await operatorLogin.json()) as { access_token: string }).access_token}` };
  const people = new FormData();
  people.append('file', new Blob(['Фамилия;Имя;E-mail\nПрокси;Пётр;proxy.petr@example.com\n'], { type: 'text/csv' }), 'people.csv');
  const started = await fetch(`${base}/api/manager/user-imports?dry_run=1`, { method: 'POST', headers: operator, body: people });
  const importId = started.ok ? ((await started.json()) as { data: { id: string } }).data.id : null;
  const polls: number[] = [];
  let importStatus = '';
  for (let i = 0; importId && i < 200 && importStatus !== 'done' && importStatus !== 'failed'; i++) {
    const state = await fetch(`${base}/api/manager/user-imports/${importId}`, { headers: operator });
    polls.push(state.status);
    importStatus = state.ok ? ((await state.json()) as { data: { status: string } }).data.status : importStatus;
    if (!state.ok) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  // Then its state three more times and its report: five calls, each of which round-robin would send
  // to either instance.
  for (const url of importId ? ['', '', '', '/report'].map((p) => `${base}/api/manager/user-imports/${importId}${p}`) : [])
    polls.push((await fetch(url, { headers: operator })).status);
  check(
    "an operator's import dry run followed to its end through nginx",
    started.status === 202 && importStatus === 'done' && polls.every((p) => p === 200),
    `HTTP ${started.status}, polls ${polls.join(' ')}, ${importStatus || 'no state'}`,
  );

  // The web app's hashed files: from the disk, cached for a year.
  const assetPath = asset ?? /\/assets\/[^"]+\.js/.exec(readFileSync(path.join(webDist, 'index.html'), 'utf8'))?.[0] ?? null;
  const assetAnswer = assetPath ? await fetch(base + assetPath) : null;
  const cache = assetAnswer?.headers.get('cache-control') ?? '';
  check('a built asset is served with a year of caching', assetAnswer?.status === 200 && cache.includes('immutable'), `${assetPath}: ${cache}`);

  // Past the app's largest request (10 files of 10 MB): nginx refuses it without passing it on.
  const huge = new FormData();
  huge.append('file', new Blob([Buffer.alloc(102 * 1024 * 1024)], { type: 'image/png' }), 'huge.png');
  const tooBig = await fetch(`${base}/api/user/${me.id}/upload-avatar`, { method: 'POST', headers, body: huge });
  check('a request past client_max_body_size is refused by nginx', tooBig.status === 413, `HTTP ${tooBig.status}`);

  // Round-robin: both instances answered requests (nginx's log names the upstream of each).
  const upstreams = new Set(
    readFileSync(path.join(prefix, 'logs/access.log'), 'utf8')
      .split('\n')
      .flatMap((line) => /127\.0\.0\.1:(\d+)$/.exec(line)?.[1] ?? []),
  );
  check(
    'both instances answered through nginx',
    ports.every((p) => upstreams.has(String(p))),
    [...upstreams].join(', '),
  );

  // One instance stops (an upgrade, one at a time): the other goes on answering through nginx.
  process.kill(-a.child.pid!, 'SIGTERM');
  const code = await a.exited;
  check('the first instance stops cleanly on SIGTERM', code === 0, `exit code ${code}`);
  const after = await Promise.all([0, 1, 2, 3].map(async () => (await fetch(`${base}/api/get`, { headers })).status));
  check(
    'requests go on through the other instance',
    after.every((s) => s === 200),
    after.join(', '),
  );

  process.kill(-b.child.pid!, 'SIGTERM');
  await b.exited;
  nginx.kill('SIGQUIT');
  await new Promise((resolve) => nginx.once('exit', resolve));
}

try {
  await main();
} catch (err) {
  failed++;
  console.error(err);
} finally {
  for (const { child, group } of children) if (child.exitCode === null && child.signalCode === null) process.kill(group ? -child.pid! : child.pid!, 'SIGKILL');
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${dbName} with (force)`);
  await admin.end();
  rmSync(work, { recursive: true, force: true });
}
console.log(failed === 0 ? 'all checks passed' : `${failed} check(s) failed`);
process.exit(failed === 0 ? 0 : 1);
