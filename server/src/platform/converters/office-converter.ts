import { AsyncResource } from 'node:async_hooks';
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { ConversionFailed, ConverterTimeout, ConverterUnavailable } from './converter-errors.ts';
import { FairQueue } from './fair-queue.ts';
import { makeDocx } from './minimal-docx.ts';
import { recordStage, timed } from '../stage-timing.ts';
import { LOW_PRIORITY_NICE } from '../thread-priority.ts';

/**
 * Where the converters keep their profiles and the documents in flight: memory (tmpfs) when the
 * machine has it, so LibreOffice's profile writes and each document's round trip never touch a disk.
 */
function workBase(): string {
  try {
    accessSync('/dev/shm', constants.W_OK);
    return '/dev/shm';
  } catch {
    return os.tmpdir();
  }
}

const bridgeScript = path.join(path.dirname(fileURLToPath(import.meta.url)), 'uno-bridge.py');

export const OFFICE_MISSING =
  'Печать документов Word недоступна: на сервере не установлен LibreOffice (пакеты libreoffice-writer-nogui и python3-uno, см. README).';

export interface OfficeOptions {
  /** Converter processes (one document at a time each). */
  size: number;
  /** A process is replaced after this many documents (LibreOffice grows over time). */
  maxDocuments?: number;
  /** One conversion may take this long before its process is killed and replaced. */
  timeoutMs?: number;
  /** A process that has not connected over UNO by then is killed and replaced. */
  startTimeoutMs?: number;
  /** Documents that may wait for a process (requests; a job's lanes are not counted against it); past it ConverterBusy (503). */
  queueLimit?: number;
  /**
   * 'auto': each converter runs in an empty network namespace (`unshare --net`) when the system
   * allows it; 'off': in the server's own network (tests of the fallback only).
   */
  isolation?: 'auto' | 'off';
  soffice?: string;
  python?: string;
  workDir?: string;
  log?: { info: (obj: object, msg: string) => void; warn: (obj: object, msg: string) => void };
}

/** Who asks for a conversion: the queue serves owners in turn (decision 021). */
export interface ConvertOwner {
  /** 'user:12' (an account), 'job' (certificate batches), 'system' (warm-up, tests). */
  key: string;
  /** False for a job's own lanes (already bounded by the job): they never get ConverterBusy. */
  bounded?: boolean;
  /**
   * A free account's render (issue 29): where the converter can, it runs at a lower CPU priority than
   * everyone else's, so a crowd of free accounts does not slow a paying client's print. LibreOffice:
   * the converter's whole process group at LOW_PRIORITY_NICE for that document, back at 0 for the next
   * one that is not low; only where the bridge may lower a niceness again (CAP_SYS_NICE, as root).
   */
  low?: boolean;
}

export const SYSTEM_OWNER: ConvertOwner = { key: 'system', bounded: false };

interface Task {
  /** Converts on the given worker, in the caller's async context (its stage timings). */
  run: (worker: OfficeWorker) => Promise<Buffer>;
  resolve: (pdf: Buffer) => void;
  reject: (err: Error) => void;
}

/**
 * .docx -> PDF through LibreOffice kept warm: `size` long-lived soffice processes, each with its own
 * profile, driven over UNO by uno-bridge.py, one document at a time each, replaced every
 * `maxDocuments` documents or when one hangs. Not a process per request.
 */
export class OfficeConverterPool {
  private readonly workers: OfficeWorker[] = [];
  private readonly queue: FairQueue<Task>;
  private readonly opts: WorkerOptions;
  private closed = false;
  converted = 0;
  /** Processes that ended while the pool was open (after maxDocuments documents, killed after a hang, or crashed); each is replaced when work arrives. */
  replaced = 0;

  constructor(opts: OfficeOptions) {
    this.opts = {
      maxDocuments: 300,
      timeoutMs: 60_000,
      startTimeoutMs: 90_000,
      soffice: '/usr/bin/soffice',
      python: '/usr/bin/python3',
      workDir: path.join(workBase(), `edu-office-${process.pid}`),
      queueLimit: 32,
      isolation: 'auto',
      ...opts,
      unshare: opts.isolation === 'off' || opts.size <= 0 ? null : networkNamespaceArgs(),
    };
    this.queue = new FairQueue(this.opts.queueLimit);
  }

  /** True when the converters run without network access (their own empty network namespace). */
  isolated(): boolean {
    return this.opts.unshare !== null;
  }

  /** Null when LibreOffice, python3 or its UNO bindings are missing; otherwise what is missing. */
  missing(): string | null {
    if (this.opts.size <= 0) return OFFICE_MISSING;
    if (!existsSync(this.opts.soffice) || !existsSync(this.opts.python)) return OFFICE_MISSING;
    if (!existsSync('/usr/lib/python3/dist-packages/uno.py') && !existsSync('/usr/lib/libreoffice/program/uno.py')) return OFFICE_MISSING;
    return null;
  }

  /** Starts the processes now so the first document does not wait for LibreOffice to boot. */
  async warm(): Promise<void> {
    if (this.missing()) return;
    await removeStaleWorkDirs(path.dirname(this.opts.workDir));
    // Closed while the stale folders were being removed (a stop right after the start).
    if (this.closed) return;
    while (this.workers.length < this.opts.size) this.workers.push(this.newWorker());
    // The first document of a process loads Writer (about a second): do it now, not for a user.
    const blank = makeDocx(['Проверка']);
    await Promise.all(this.workers.map((w) => w.ready.then(() => w.convert(blank)).catch(() => undefined)));
  }

  toPdf(input: Buffer, owner: ConvertOwner = SYSTEM_OWNER): Promise<Buffer> {
    const missing = this.missing();
    if (missing) return Promise.reject(new ConverterUnavailable(missing));
    if (this.closed) return Promise.reject(new ConverterUnavailable(OFFICE_MISSING));
    const queued = performance.now();
    const run = AsyncResource.bind((worker: OfficeWorker) => {
      recordStage('office-queue', performance.now() - queued);
      return worker.convert(input, owner.low === true);
    });
    return new Promise((resolve, reject) => {
      this.queue.push(owner.key, { run, resolve, reject }, { bounded: owner.bounded ?? true });
      this.pump();
    });
  }

  private newWorker(): OfficeWorker {
    const w = new OfficeWorker(this.opts);
    w.onExit = () => {
      const i = this.workers.indexOf(w);
      if (i >= 0) this.workers.splice(i, 1);
      if (!this.closed) {
        this.replaced++;
        this.pump();
      }
    };
    return w;
  }

  /** Documents converting now and waiting for a converter (metrics). */
  stats(): { running: number; queued: number } {
    return { running: this.workers.filter((w) => w.busy).length, queued: this.queue.length };
  }

  /** Process ids of the converters (the bridge's, leader of its process group), one being stopped included until it exits. */
  pids(): number[] {
    return this.workers.flatMap((w) => (w.pid === undefined ? [] : [w.pid]));
  }

  private pump(): void {
    while (this.queue.length > 0 && !this.closed) {
      let worker = this.workers.find((w) => !w.busy && !w.dead);
      if (!worker && this.workers.length < this.opts.size) {
        worker = this.newWorker();
        this.workers.push(worker);
      }
      if (!worker) return;
      const task = this.queue.shift()!;
      worker.busy = true;
      task
        .run(worker)
        .then(
          (pdf) => {
            this.converted++;
            task.resolve(pdf);
          },
          (err: Error) => task.reject(err),
        )
        .finally(() => {
          worker.busy = false;
          worker.settled();
          if (worker.documents >= this.opts.maxDocuments) {
            this.opts.log?.info({ pid: worker.pid, documents: worker.documents }, 'replacing a LibreOffice converter');
            // Not awaited: the pool goes on with a fresh converter while this one exits.
            void worker.stop();
          }
          this.pump();
        });
    }
  }

  describe(): string {
    if (this.missing()) return 'LibreOffice не установлен';
    const network = this.isolated()
      ? 'без доступа к сети (отдельное сетевое пространство)'
      : 'сеть не изолирована (unshare недоступен): внешние ссылки шаблонов вырезаются, загрузка удалённого содержимого запрещена настройками';
    return `LibreOffice, ${this.opts.size} процесса, ${network}`;
  }

  /**
   * Stops taking documents, fails the waiting ones, lets the ones being converted finish (each
   * converter still has its time limit; one still starting is not waited for), then ends every
   * converter with its whole process group.
   */
  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.queue.drain()) t.reject(new ConverterUnavailable(OFFICE_MISSING));
    // A converter still starting fails its document (503) rather than hold the stop for LibreOffice's boot.
    await Promise.all(this.workers.map((w) => (w.started ? w.idle() : Promise.resolve()).then(() => w.stop())));
    // The folder lives in memory (tmpfs) when it can: leave nothing behind.
    if (this.workers.length === 0) await fs.rm(this.opts.workDir, { recursive: true, force: true }).catch(() => undefined);
  }
}

type WorkerOptions = Required<Omit<OfficeOptions, 'log'>> & Pick<OfficeOptions, 'log'> & { unshare: string[] | null };

let namespaceArgs: string[] | null | undefined;

/**
 * The `unshare` arguments that give a process an empty network namespace (only a loopback that is
 * down: no address, inside or outside, can be reached), or null when the system refuses both:
 * `--net` needs CAP_SYS_ADMIN (root), `--map-root-user --net` needs unprivileged user namespaces.
 * Tried once per server.
 */
export function networkNamespaceArgs(): string[] | null {
  if (namespaceArgs !== undefined) return namespaceArgs;
  namespaceArgs = null;
  for (const args of [['--net'], ['--map-root-user', '--net']]) {
    const probe = spawnSync('unshare', [...args, '--', 'true'], { stdio: 'ignore', timeout: 5000 });
    if (probe.status === 0) {
      namespaceArgs = args;
      break;
    }
  }
  return namespaceArgs;
}

/**
 * Settings of every converter's profile, whatever the network: links to pictures and other content of
 * documents outside the trusted locations are not followed (BlockUntrustedRefererLinks; our
 * documents live in a work folder that is not trusted), and every HTTP, HTTPS and FTP request goes to
 * a proxy that does not exist (port 9 of the loopback). With the network namespace this is a second
 * wall; without it, the only one besides stripping external links from templates.
 */
const PROFILE_SETTINGS = `<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
${[
  ['/org.openoffice.Office.Common/Security/Scripting', 'BlockUntrustedRefererLinks', 'true'],
  ['/org.openoffice.Inet/Settings', 'ooInetProxyType', '2'],
  ...['HTTP', 'HTTPS', 'FTP'].flatMap((p) => [
    ['/org.openoffice.Inet/Settings', `ooInet${p}ProxyName`, '127.0.0.1'],
    ['/org.openoffice.Inet/Settings', `ooInet${p}ProxyPort`, '9'],
  ]),
  ['/org.openoffice.Inet/Settings', 'ooInetNoProxy', ''],
]
  .map(([item, name, value]) => `<item oor:path="${item}"><prop oor:name="${name}" oor:op="fuse"><value>${value}</value></prop></item>`)
  .join('\n')}
</oor:items>
`;

function writeProfileSettings(profile: string): void {
  mkdirSync(path.join(profile, 'user'), { recursive: true });
  writeFileSync(path.join(profile, 'user', 'registrymodifications.xcu'), PROFILE_SETTINGS);
}

/** Work folders left by servers that were killed (SIGKILL leaves no time to clean up). */
async function removeStaleWorkDirs(base: string): Promise<void> {
  const names = await fs.readdir(base).catch(() => [] as string[]);
  for (const name of names) {
    const pid = /^edu-office-(\d+)$/.exec(name)?.[1];
    if (!pid || Number(pid) === process.pid || isAlive(Number(pid))) continue;
    await fs.rm(path.join(base, name), { recursive: true, force: true }).catch(() => undefined);
  }
}

/**
 * Process groups of the converters this process started and that may still have members: killed at
 * once when the process exits (process.exit after an uncaught error, a stop that took too long), so
 * no soffice is left behind re-parented to init. The bridges also end themselves when this process
 * dies (uno-bridge.py, PR_SET_PDEATHSIG), which covers SIGKILL.
 */
const liveGroups = new Set<number>();
let exitHookInstalled = false;

function trackGroup(pid: number): void {
  liveGroups.add(pid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const group of liveGroups) killGroup(group);
  });
}

/** SIGKILL to the whole process group led by `pid` (the bridge, unshare's place): soffice.bin and oosplash with it. */
function killGroup(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    /* already gone */
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

interface Answer {
  ok: boolean;
  /** Set by the time limit, not by the bridge. */
  timedOut?: boolean;
  error?: string;
  load_ms?: number;
  export_ms?: number;
}

class OfficeWorker {
  readonly ready: Promise<void>;
  busy = false;
  dead = false;
  /** Connected to its soffice: reads its input (a closed input ends it). */
  started = false;
  documents = 0;
  pid: number | undefined;
  /** The bridge may set its group's niceness both ways (it said so when ready). */
  renice = false;
  onExit: () => void = () => {};
  private readonly proc: ChildProcessWithoutNullStreams;
  private readonly dir: string;
  private seq = 0;
  private readonly waiting = new Map<number, (answer: Answer) => void>();
  private readonly idleWaiters: (() => void)[] = [];
  /** Resolves when the bridge process has ended (and its group was killed). */
  private readonly exited: Promise<void>;
  private markExited!: () => void;

  constructor(private readonly opts: WorkerOptions) {
    this.dir = path.join(opts.workDir, randomBytes(6).toString('hex'));
    const profile = path.join(this.dir, 'profile');
    const pipe = `edu_office_${process.pid}_${randomBytes(4).toString('hex')}`;
    writeProfileSettings(profile);
    // Its own process group: stopping the bridge also stops its soffice. In an empty network
    // namespace when possible (unshare then runs the bridge in its own place, same process id), so
    // nothing a document links to is ever fetched.
    this.exited = new Promise((resolve) => (this.markExited = resolve));
    const command = [opts.python, bridgeScript, profile, pipe, opts.soffice];
    this.proc = opts.unshare
      ? spawn('unshare', [...opts.unshare, '--', ...command], { detached: true, stdio: ['pipe', 'pipe', 'pipe'] })
      : spawn(command[0], command.slice(1), { detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    this.pid = this.proc.pid;
    if (this.pid !== undefined) trackGroup(this.pid);
    let readyResolve!: () => void;
    let readyReject!: (err: Error) => void;
    this.ready = new Promise((res, rej) => {
      readyResolve = res;
      readyReject = rej;
    });
    this.ready.catch(() => undefined);
    // The bridge gives up on soffice after 60 s itself; this guards against the bridge hanging too.
    const startTimer = setTimeout(() => {
      readyReject(new ConverterUnavailable(`${OFFICE_MISSING} (LibreOffice не ответил за ${Math.round(opts.startTimeoutMs / 1000)} с)`));
      opts.log?.warn({ pid: this.pid }, 'LibreOffice did not start in time; stopping the converter');
      void this.stop();
    }, opts.startTimeoutMs);
    startTimer.unref();
    this.ready.then(
      () => clearTimeout(startTimer),
      () => clearTimeout(startTimer),
    );
    const lines = readline.createInterface({ input: this.proc.stdout });
    lines.on('line', (line) => {
      let msg: { ready?: boolean; id?: number; renice?: boolean } & Partial<Answer>;
      try {
        msg = JSON.parse(line);
      } catch {
        return;
      }
      if (msg.ready !== undefined) {
        if (msg.ready) {
          this.started = true;
          this.renice = msg.renice === true;
          readyResolve();
        } else readyReject(new ConverterUnavailable(`${OFFICE_MISSING} (${msg.error ?? 'не запустился'})`));
        return;
      }
      const done = this.waiting.get(msg.id ?? -1);
      if (done) {
        this.waiting.delete(msg.id!);
        done({ ok: Boolean(msg.ok), error: msg.error, load_ms: msg.load_ms, export_ms: msg.export_ms });
      }
    });
    this.proc.stderr.resume();
    let ended = false;
    const onEnd = () => {
      if (ended) return;
      ended = true;
      this.dead = true;
      // The bridge is gone, however it ended: whatever it left in its group (an oosplash whose
      // soffice.bin outlived SIGTERM, a soffice of a bridge that crashed) goes with it.
      if (this.pid !== undefined) {
        killGroup(this.pid);
        liveGroups.delete(this.pid);
      }
      for (const settle of this.idleWaiters.splice(0)) settle();
      this.markExited();
      readyReject(new ConverterUnavailable(OFFICE_MISSING));
      for (const done of this.waiting.values()) done({ ok: false, error: 'the converter stopped' });
      this.waiting.clear();
      void fs.rm(this.dir, { recursive: true, force: true });
      this.onExit();
    };
    this.proc.on('exit', onEnd);
    // A process that could not be started at all has no 'exit'.
    this.proc.on('error', () => {
      if (this.proc.pid === undefined) onEnd();
    });
  }

  /** Resolves when the document being converted (if any) is done, or the converter has ended. */
  idle(): Promise<void> {
    if (!this.busy || this.dead) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /** Called by the pool when a document is done. */
  settled(): void {
    for (const settle of this.idleWaiters.splice(0)) settle();
  }

  async convert(input: Buffer, low = false): Promise<Buffer> {
    await this.ready;
    const id = ++this.seq;
    const inPath = path.join(this.dir, `${id}.docx`);
    const outPath = path.join(this.dir, `${id}.pdf`);
    await timed('office-write', () => fs.writeFile(inPath, input));
    try {
      const answer = await timed(
        'office-uno',
        () =>
          new Promise<Answer>((resolve) => {
            const timer = setTimeout(() => {
              this.waiting.delete(id);
              this.opts.log?.warn({ pid: this.pid }, 'LibreOffice conversion timed out; replacing the converter');
              // A hung process does not read its input any more: kill it at once, not after the grace period.
              void this.stop({ now: true });
              resolve({ ok: false, error: 'timeout', timedOut: true });
            }, this.opts.timeoutMs);
            this.waiting.set(id, (a) => {
              clearTimeout(timer);
              resolve(a);
            });
            const nice = this.renice ? { nice: low ? LOW_PRIORITY_NICE : 0 } : {};
            this.proc.stdin.write(`${JSON.stringify({ id, in: inPath, out: outPath, ...nice })}\n`);
          }),
      );
      this.documents++;
      if (answer.timedOut) throw new ConverterTimeout(Math.max(1, Math.round(this.opts.timeoutMs / 1000)));
      if (!answer.ok) throw new ConversionFailed(answer.error ?? 'conversion failed');
      if (answer.load_ms !== undefined) recordStage('office-load', answer.load_ms);
      if (answer.export_ms !== undefined) recordStage('office-export', answer.export_ms);
      return await timed('office-read', () => fs.readFile(outPath));
    } finally {
      // In the background: the answer does not wait for the clean-up (the folder goes with the worker anyway).
      void fs.rm(inPath, { force: true }).catch(() => undefined);
      void fs.rm(outPath, { force: true }).catch(() => undefined);
    }
  }

  /** Ends the bridge (and its soffice): closes its input (SIGTERM while it is still starting), then kills the process group after 5 s, or at once. */
  async stop(opts: { now?: boolean } = {}): Promise<void> {
    if (this.dead) return this.exited;
    this.dead = true;
    this.proc.stdin.end();
    const pid = this.pid;
    const kill = () => {
      if (pid) killGroup(pid);
    };
    if (opts.now) kill();
    // Still waiting for soffice, the bridge does not read its input yet: SIGTERM ends it and its group now.
    else if (!this.started && pid) {
      try {
        process.kill(-pid, 'SIGTERM');
      } catch {
        /* already gone */
      }
    }
    const timer = setTimeout(kill, 5000);
    await this.exited;
    clearTimeout(timer);
  }
}
