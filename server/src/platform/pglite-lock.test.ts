import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { DataFolderBusyError, lockFileOf, lockPgliteFolder, pgliteHolder } from './pglite-lock.ts';

const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'edu-lock-'));
afterAll(() => fs.rm(tmp, { recursive: true, force: true }));

const folder = (name: string) => path.join(tmp, name, 'pglite');
const writeLock = async (dir: string, holder: { pid: number; host: string }) => {
  await fs.mkdir(path.dirname(lockFileOf(dir)), { recursive: true });
  await fs.writeFile(lockFileOf(dir), JSON.stringify({ ...holder, since: '2026-01-01T00:00:00.000Z', token: 'other' }));
};

describe('the PGlite folder lock', () => {
  it('is one holder at a time, this process included, and free again once released', async () => {
    const dir = folder('a');
    const release = lockPgliteFolder(dir);
    expect(pgliteHolder(dir)?.pid).toBe(process.pid);
    expect(() => lockPgliteFolder(dir)).toThrow(DataFolderBusyError);
    release();
    expect(pgliteHolder(dir)).toBeNull();
    await expect(fs.access(lockFileOf(dir))).rejects.toThrow();
    lockPgliteFolder(dir)();
  });

  it('refuses while another live process holds it, naming the process and the lock file', async () => {
    const dir = folder('b');
    await writeLock(dir, { pid: process.ppid, host: os.hostname() });
    expect(() => lockPgliteFolder(dir)).toThrow(
      new RegExp(`открыта другим процессом \\(pid ${process.ppid}.*удалите ${lockFileOf(dir).replace(/[.]/g, '\\.')}`),
    );
    await writeLock(dir, { pid: 1, host: 'another-host' });
    expect(() => lockPgliteFolder(dir)).toThrow(/pid 1 на another-host/);
  });

  it('takes over a lock left by a process that is gone, or by an earlier process with this pid', async () => {
    const gone = spawnSync(process.execPath, ['-e', '']).pid;
    const dir = folder('c');
    await writeLock(dir, { pid: gone, host: os.hostname() });
    const release = lockPgliteFolder(dir);
    expect(JSON.parse(await fs.readFile(lockFileOf(dir), 'utf8')).pid).toBe(process.pid);
    release();
    // A container's app is pid 1 on every start: a lock with our pid that we did not take is stale.
    await writeLock(dir, { pid: process.pid, host: os.hostname() });
    lockPgliteFolder(dir)();
  });
});
