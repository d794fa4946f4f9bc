import fs from 'node:fs';
import os from 'node:os';

// CPU accounting from /proc (Linux only; elsewhere every figure is null). On a small shared machine
// throughput depends on who else is busy, so each scenario also reports CPU time per request of
// the server process and of the database's backends, and how much CPU other processes took.

const TICK_MS = 10; // USER_HZ is 100 on Linux

export interface CpuSnapshot {
  at: number;
  server: number | null;
  /** CPU ticks of each backend of the database, by pid. */
  db: Map<number, number>;
  self: number;
  machineBusy: number;
  machineTotal: number;
}

export interface CpuUsage {
  /** CPU ms per completed request. */
  server_ms_per_req: number | null;
  db_ms_per_req: number;
  loadgen_ms_per_req: number;
  /** Average cores in use over the scenario (the machine has os.cpus().length). */
  cores: { server: number | null; db: number; loadgen: number; others: number; machine: number };
}

const available = fs.existsSync('/proc/stat');

function processTicks(pid: number): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // utime + stime
  } catch {
    return null;
  }
}

/**
 * CPU ticks of the PostgreSQL backends connected to `database`, by pid, with the parallel workers
 * they started ("postgres: parallel worker for PID n" names no database).
 */
function backendTicks(database: string): Map<number, number> {
  const ticks = new Map<number, number>();
  const workers: Array<[number, number]> = [];
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (!cmd.startsWith('postgres:')) continue;
      const leader = /parallel worker for PID (\d+)/.exec(cmd);
      if (leader) {
        workers.push([Number(entry), Number(leader[1])]);
        continue;
      }
      if (!cmd.includes(` ${database} `)) continue;
      const t = processTicks(Number(entry));
      if (t !== null) ticks.set(Number(entry), t);
    } catch {
      // the process has gone
    }
  }
  for (const [pid, leader] of workers) {
    if (!ticks.has(leader)) continue;
    const t = processTicks(pid);
    if (t !== null) ticks.set(pid, t);
  }
  return ticks;
}

function machineTicks(): { busy: number; total: number } {
  const cpu = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1, 9).map(Number);
  const total = cpu.reduce((a, b) => a + b, 0);
  return { busy: total - cpu[3] - cpu[4], total };
}

/** The pid of the process listening on a TCP port of this machine (needs access to its /proc/<pid>/fd). */
export function findListeningPid(port: number): number | null {
  if (!available) return null;
  const hex = port.toString(16).toUpperCase().padStart(4, '0');
  const inodes = new Set<string>();
  for (const file of ['/proc/net/tcp', '/proc/net/tcp6']) {
    if (!fs.existsSync(file)) continue;
    for (const line of fs.readFileSync(file, 'utf8').split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length > 9 && f[1].endsWith(`:${hex}`) && f[3] === '0A') inodes.add(f[9]);
    }
  }
  if (inodes.size === 0) return null;
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      for (const fd of fs.readdirSync(`/proc/${entry}/fd`)) {
        const link = fs.readlinkSync(`/proc/${entry}/fd/${fd}`);
        const m = link.match(/^socket:\[(\d+)\]$/);
        if (m && inodes.has(m[1])) return Number(entry);
      }
    } catch {
      // not ours to read, or gone
    }
  }
  return null;
}

/**
 * Measures CPU over a run: start() samples every second until stop(), so backends that come and go
 * (pool connections closed when idle, pgbench's clients) are counted for the time they were seen.
 */
export class CpuMeter {
  private first: CpuSnapshot | null = null;
  private last: CpuSnapshot | null = null;
  /** Backend pid -> [ticks when first seen (0 if born during the run), ticks when last seen]. */
  private backends = new Map<number, [number, number]>();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly serverPid: number | null,
    private readonly database: string,
  ) {}

  start(): void {
    this.backends.clear();
    this.first = this.snapshot();
    if (!this.first) return;
    for (const [pid, t] of this.first.db) this.backends.set(pid, [t, t]);
    this.timer = setInterval(() => this.sample(), 1000);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    if (this.first) this.sample();
  }

  private sample(): void {
    const s = this.snapshot();
    if (!s) return;
    this.last = s;
    for (const [pid, t] of s.db) {
      const seen = this.backends.get(pid);
      if (seen) seen[1] = t;
      else this.backends.set(pid, [0, t]);
    }
  }

  private snapshot(): CpuSnapshot | null {
    if (!available) return null;
    const self = process.cpuUsage();
    const machine = machineTicks();
    return {
      at: Date.now(),
      server: this.serverPid ? processTicks(this.serverPid) : null,
      db: backendTicks(this.database),
      self: (self.user + self.system) / 1000 / TICK_MS,
      machineBusy: machine.busy,
      machineTotal: machine.total,
    };
  }

  /** CPU use between start() and stop(), over `requests` completed requests. */
  usage(requests: number): CpuUsage | null {
    const a = this.first;
    const b = this.last;
    if (!a || !b || b.at <= a.at) return null;
    const wallTicks = (b.at - a.at) / TICK_MS;
    const server = a.server !== null && b.server !== null ? b.server - a.server : null;
    let db = 0;
    for (const [from, to] of this.backends.values()) db += to - from;
    const self = b.self - a.self;
    const cores = b.machineTotal - a.machineTotal > 0 ? ((b.machineBusy - a.machineBusy) / (b.machineTotal - a.machineTotal)) * os.cpus().length : 0;
    const perReq = (ticks: number) => round((ticks * TICK_MS) / Math.max(1, requests));
    const c = (ticks: number) => round(ticks / wallTicks);
    return {
      server_ms_per_req: server === null ? null : perReq(server),
      db_ms_per_req: perReq(db),
      loadgen_ms_per_req: perReq(self),
      cores: {
        server: server === null ? null : c(server),
        db: c(db),
        loadgen: c(self),
        others: round(Math.max(0, cores - c(server ?? 0) - c(db) - c(self))),
        machine: round(cores),
      },
    };
  }
}

const round = (n: number) => Math.round(n * 100) / 100;
