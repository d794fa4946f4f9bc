// One process at a time in a PGlite data folder: PGlite has no lock of its own (its postmaster.pid
// holds no real process id), and two processes writing one folder corrupt it. The process that opens
// the folder keeps a lock file beside it (`<folder>.lock`: its pid, host and start time); another
// process (a second app, `npm run backup`, `npm run restore`) refuses while that process is alive.
// A lock left by a process that is gone (a crash, a kill -9) is taken over.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

export class DataFolderBusyError extends Error {}

interface Holder {
  pid: number;
  host: string;
  since: string;
  token: string;
}

export const lockFileOf = (dataDir: string): string => `${path.resolve(dataDir)}.lock`;

/** Lock files this process holds: a lock with this process's pid but not in here was left by an earlier process with the same pid (a container's pid 1). */
const held = new Set<string>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: the process exists but belongs to another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(file: string): Holder | 'unreadable' | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  try {
    const h = JSON.parse(text) as Partial<Holder>;
    if (typeof h.pid === 'number' && typeof h.host === 'string')
      return { pid: h.pid, host: h.host, since: String(h.since ?? ''), token: String(h.token ?? '') };
  } catch {
    // a lock being written this instant, or damaged
  }
  return 'unreadable';
}

/**
 * The process holding the folder now (this one included), or null when nobody does (no lock file, or
 * a lock of a process that is gone). A lock written on another host counts as held: its process cannot
 * be checked from here.
 */
export function pgliteHolder(dataDir: string): Holder | null {
  const file = lockFileOf(dataDir);
  const holder = readHolder(file);
  if (holder === null) return null;
  if (holder === 'unreadable') {
    // Just created and not yet written: held. An old unreadable file is debris.
    const age = Date.now() - (fs.statSync(file, { throwIfNoEntry: false })?.mtimeMs ?? 0);
    return age < 5000 ? { pid: 0, host: os.hostname(), since: '', token: '' } : null;
  }
  if (holder.host !== os.hostname()) return holder;
  if (holder.pid === process.pid) return held.has(file) ? holder : null;
  if (!alive(holder.pid)) return null;
  return holder;
}

export function busyMessage(dataDir: string, holder: Holder): string {
  const file = lockFileOf(dataDir);
  const who = `pid ${holder.pid || '?'}${holder.host !== os.hostname() ? ` на ${holder.host}` : ''}${holder.since ? `, с ${holder.since}` : ''}`;
  return (
    `Встроенная база данных ${dataDir} открыта другим процессом (${who}): остановите приложение и повторите. ` +
    `Если приложение точно остановлено, удалите ${file}.\n` +
    `The embedded database ${dataDir} is open in another process (${who.replace(' на ', ' on ').replace(', с ', ', since ')}): stop the app and retry. ` +
    `If the app is surely stopped, delete ${file}.`
  );
}

/** Takes the folder for this process; throws DataFolderBusyError while another live process holds it. Returns the release. */
export function lockPgliteFolder(dataDir: string): () => void {
  const file = lockFileOf(dataDir);
  const me: Holder = { pid: process.pid, host: os.hostname(), since: new Date().toISOString(), token: randomBytes(8).toString('hex') };
  fs.mkdirSync(path.dirname(file), { recursive: true });
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify(me), { flag: 'wx' });
      held.add(file);
      return () => {
        held.delete(file);
        const now = readHolder(file);
        // Only our own lock: someone may have taken over a lock they found stale.
        if (now !== null && now !== 'unreadable' && now.token === me.token) fs.rmSync(file, { force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = pgliteHolder(dataDir);
      if (holder) throw new DataFolderBusyError(busyMessage(dataDir, holder));
      fs.rmSync(file, { force: true });
    }
  }
  throw new DataFolderBusyError(busyMessage(dataDir, { pid: 0, host: os.hostname(), since: '', token: '' }));
}
