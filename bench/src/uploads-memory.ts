// Memory of the server during large uploads (issue 18): N parallel POST /api/publication, each a
// multipart body of `--files` files of `--file-mb` MB (a valid journal article with additional
// files), streamed from a generator so the client holds almost nothing. The server's RSS is read
// from /proc/<pid>/status every 50 ms; the disk used under its DATA_DIR and the entries made are
// reported too.
//
//   npx tsx bench/src/uploads-memory.ts --url http://127.0.0.1:8221 --pid <server pid> --data-dir <DATA_DIR>
//
// Options: --parallel 4, --files 10, --file-mb 10 (10 × 10 MB = one 100 MB body per request),
// --email demo-user@example.com, --password demo1234, --label before|after.
import fs from 'node:fs';
import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { parseArgs } from './lib/args.ts';
import { printTable, writeResult } from './lib/results.ts';

const args = parseArgs();
const base = args.string('url', 'http://127.0.0.1:8221').replace(/\/$/, '');
const pid = args.number('pid', 0);
const dataDir = args.string('data-dir', '');
const parallel = args.number('parallel', 4);
const fileCount = args.number('files', 10);
const fileBytes = Math.round(args.number('file-mb', 10) * 1024 * 1024) - 1024;
const label = args.string('label', 'run');
if (!pid) throw new Error('--pid <server process id> is needed (the RSS is read from /proc/<pid>/status)');

const MB = 1024 * 1024;

function rssOf(processId: number): number {
  const status = fs.readFileSync(`/proc/${processId}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
  return kb * 1024;
}

/** The server's whole process tree (npm → tsx → node): the largest RSS is the app's node process. */
function treeRss(root: number): number {
  const children = (() => {
    try {
      return execFileSync('pgrep', ['-P', String(root)], { encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .map(Number);
    } catch {
      return [];
    }
  })();
  return Math.max(rssOf(root), ...children.map(treeRss));
}

function diskBytes(dir: string): number {
  if (!dir || !fs.existsSync(dir)) return 0;
  return Number(execFileSync('du', ['-sb', dir], { encoding: 'utf8' }).split('\t')[0]);
}

async function api(pathname: string, init: RequestInit & { token?: string } = {}) {
  const headers = new Headers(init.headers);
  if (init.token) headers.set('authorization', `Bearer ${init.token}`);
  if (init.body && typeof init.body === 'string') headers.set('content-type', 'application/json');
  const res = await fetch(`${base}${pathname}`, { ...init, headers });
  const text = await res.text();
  let json: unknown = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: res.status, json: json as Record<string, unknown> };
}

/** A multipart body generated piece by piece: fields, then `fileCount` PDF files of `fileBytes` each. */
function multipartBody(boundary: string, fields: Record<string, string>): { stream: ReadableStream<Uint8Array>; length: number } {
  const pieces: Array<Buffer | { pdf: number }> = [];
  for (const [name, value] of Object.entries(fields))
    pieces.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  for (let i = 0; i < fileCount; i++) {
    const field = i === 0 ? 'file' : 'additionalFiles[]';
    pieces.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="part-${i}.pdf"\r\nContent-Type: application/pdf\r\n\r\n`),
    );
    pieces.push({ pdf: fileBytes });
    pieces.push(Buffer.from('\r\n'));
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  const length = pieces.reduce((sum, p) => sum + (Buffer.isBuffer(p) ? p.length : p.pdf), 0);
  const chunk = Buffer.alloc(256 * 1024, 0x20);
  const head = Buffer.from('%PDF-1.4\n%bench\n');
  let index = 0;
  let left = -1;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      const piece = pieces[index];
      if (!piece) return controller.close();
      if (Buffer.isBuffer(piece)) {
        index++;
        return controller.enqueue(piece);
      }
      if (left < 0) {
        left = piece.pdf - head.length;
        return controller.enqueue(head);
      }
      const n = Math.min(left, chunk.length);
      left -= n;
      if (left === 0) {
        index++;
        left = -1;
      }
      controller.enqueue(chunk.subarray(0, n));
    },
  });
  return { stream, length };
}

async function main() {
  const login = await api('/login', {
    method: 'POST',
    body: JSON.stringify({ email: args.string('email', 'demo-user@example.com'), password: args.string('password', 'demo1234') }),
  });
  const token = login.json.access_token as string;
  if (!token) throw new Error(`login failed: ${login.status} ${JSON.stringify(login.json)}`);
  const releases = await api('/api/publication-release?dict_service_subtype_id=4', { token });
  const release = (releases.json.data as Array<{ id: number }> | undefined)?.[0];
  if (!release) throw new Error(`no journal release: ${JSON.stringify(releases.json).slice(0, 300)}`);
  const me = await api('/api/get', { token });
  const userId = (me.json.data as { id: number } | undefined)?.id ?? (me.json as { id?: number }).id;
  const entriesBefore = await api(`/api/entry?per_page=15`, { token });
  const totalEntries = (r: typeof entriesBefore) => (r.json.meta as { total?: number } | undefined)?.total ?? NaN;

  const samples: number[] = [];
  const baseline = treeRss(pid);
  const diskBefore = diskBytes(dataDir);
  let peakDisk = diskBefore;
  const timer = setInterval(() => {
    samples.push(treeRss(pid));
    if (samples.length % 10 === 0) peakDisk = Math.max(peakDisk, diskBytes(dataDir));
  }, 50);
  const started = Date.now();
  const results = await Promise.all(
    Array.from({ length: parallel }, async (_, i) => {
      const boundary = `----bench${randomBytes(8).toString('hex')}`;
      const fields = {
        dict_subtype_id: '4',
        title: `Нагрузочная статья ${i + 1}`,
        dict_category_id: '3',
        release_id: String(release.id),
        authors_num: '1',
        authors: '[]',
      };
      const body = multipartBody(boundary, fields);
      const t0 = Date.now();
      const res = await fetch(`${base}/api/publication`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': String(body.length) },
        body: body.stream,
        duplex: 'half',
      } as RequestInit & { duplex: 'half' });
      const text = await res.text();
      return { status: res.status, ms: Date.now() - t0, bytes: body.length, message: text.slice(0, 160) };
    }),
  );
  const wall = Date.now() - started;
  await new Promise((r) => setTimeout(r, 1000));
  clearInterval(timer);
  const after = treeRss(pid);
  const diskAfter = diskBytes(dataDir);
  const entriesAfter = await api(`/api/entry?per_page=15`, { token });
  const peak = Math.max(baseline, ...samples);
  const summary = {
    label,
    parallel,
    files_per_request: fileCount,
    request_mb: +(results[0].bytes / MB).toFixed(1),
    user_id: userId,
    wall_ms: wall,
    statuses: results.map((r) => r.status),
    messages: [...new Set(results.map((r) => r.message))],
    rss_baseline_mb: +(baseline / MB).toFixed(1),
    rss_peak_mb: +(peak / MB).toFixed(1),
    rss_peak_growth_mb: +((peak - baseline) / MB).toFixed(1),
    rss_after_mb: +(after / MB).toFixed(1),
    disk_growth_mb: +((diskAfter - diskBefore) / MB).toFixed(1),
    disk_peak_growth_mb: +((Math.max(peakDisk, diskAfter) - diskBefore) / MB).toFixed(1),
    entries_added: totalEntries(entriesAfter) - totalEntries(entriesBefore),
  };
  printTable(
    ['run', 'requests', 'MB each', 'statuses', 'wall s', 'RSS before', 'RSS peak', 'growth', 'disk +', 'entries +'],
    [
      [
        label,
        parallel,
        summary.request_mb,
        summary.statuses.join(' '),
        (wall / 1000).toFixed(1),
        summary.rss_baseline_mb,
        summary.rss_peak_mb,
        summary.rss_peak_growth_mb,
        summary.disk_growth_mb,
        summary.entries_added,
      ],
    ],
  );
  if (summary.messages.length) console.log(summary.messages.join('\n'));
  console.log(writeResult(`uploads-memory-${label}`, summary));
}

await main();
