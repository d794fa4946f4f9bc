// The scheduling priority of the heavy threads (issue 29): the uniqueness pool's threads run at a
// higher niceness than the request thread, so on a machine with few cores the kernel gives the CPU
// to the API's requests first and to a 480 000-character check with what is left. Linux only (a
// thread is a task with its own id there, and setpriority on that id affects that thread alone);
// elsewhere nothing changes. Raising the niceness needs no privilege.
import fs from 'node:fs';
import os from 'node:os';

/** The niceness free accounts' documents render at (a second Chromium, the LibreOffice converter while it works on one). */
export const LOW_PRIORITY_NICE = 10;

/** The calling thread's kernel task id (Linux), or null. */
export function currentThreadId(): number | null {
  try {
    // "<pid>/task/<tid>"
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) && tid > 0 ? tid : null;
  } catch {
    return null;
  }
}

/** Sets the calling thread's niceness (0-19); answers the thread id, or null where it cannot. */
export function niceCurrentThread(nice: number): number | null {
  const tid = currentThreadId();
  if (tid === null) return null;
  try {
    os.setPriority(tid, nice);
    return tid;
  } catch {
    return null;
  }
}

/** The niceness of a task of this process (field 19 of /proc/<pid>/task/<tid>/stat), or null. */
export function threadNiceness(tid: number, pid = process.pid): number | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
    // Fields after the command name "(…)", which may hold spaces: state is field 3, nice field 19.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(rest[19 - 3]);
  } catch {
    return null;
  }
}
