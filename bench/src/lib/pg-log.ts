import fs from 'node:fs';

// Reads what `log_statement = 'all'` wrote to the PostgreSQL server log (Debian's default
// stderr log with log_line_prefix '%m [%p] %q%u@%d '). Extended-protocol queries look like
//   2026-11-22 11:18:07.041 UTC [19424] postgres@edu_bench LOG:  execute <unnamed>: select ...
//   <tab>continuation lines of the statement
//   2026-11-22 11:18:07.041 UTC [19424] postgres@edu_bench DETAIL:  parameters: $1 = '1', $2 = NULL

export interface LoggedStatement {
  pid: number;
  /** The prepared statement's name, '' for the unnamed one, null for a simple-protocol query. */
  name: string | null;
  sql: string;
  params: Array<string | null>;
}

export const DEFAULT_PG_LOG = '/var/log/postgresql/postgresql-15-main.log';

const LINE = /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? \S+ \[(\d+)\] (?:(\S*)@(\S*) )?(LOG|DETAIL|ERROR|STATEMENT|WARNING|HINT|CONTEXT|FATAL): {2}(.*)$/;
const PARAM = /\$(\d+) = (NULL|'((?:[^']|'')*)')/g;

export function logSize(file: string): number {
  return fs.statSync(file).size;
}

/** The statements of `database` logged from byte `offset` on. */
export function readStatements(file: string, offset: number, database: string): LoggedStatement[] {
  const fd = fs.openSync(file, 'r');
  let text: string;
  try {
    const size = fs.fstatSync(fd).size;
    const buf = Buffer.alloc(Math.max(0, size - offset));
    fs.readSync(fd, buf, 0, buf.length, offset);
    text = buf.toString('utf8');
  } finally {
    fs.closeSync(fd);
  }
  // Group lines into messages: a prefixed line starts one, tab-indented lines continue it.
  const messages: Array<{ pid: number; db: string; kind: string; body: string }> = [];
  for (const line of text.split('\n')) {
    const m = LINE.exec(line);
    if (m) messages.push({ pid: Number(m[1]), db: m[3] ?? '', kind: m[4], body: m[5] });
    else if (messages.length && line.startsWith('\t')) messages[messages.length - 1].body += '\n' + line.slice(1);
  }
  const out: LoggedStatement[] = [];
  const last = new Map<number, LoggedStatement>();
  for (const msg of messages) {
    if (msg.db !== database) continue;
    if (msg.kind === 'LOG') {
      const exec = /^execute ([^:]*): ([\s\S]*)$/.exec(msg.body);
      const simple = /^statement: ([\s\S]*)$/.exec(msg.body);
      if (!exec && !simple) continue;
      const s: LoggedStatement = exec
        ? { pid: msg.pid, name: exec[1] === '<unnamed>' ? '' : exec[1], sql: exec[2], params: [] }
        : { pid: msg.pid, name: null, sql: simple![1], params: [] };
      out.push(s);
      last.set(msg.pid, s);
    } else if (msg.kind === 'DETAIL' && msg.body.startsWith('parameters: ')) {
      const s = last.get(msg.pid);
      if (!s) continue;
      for (const p of msg.body.matchAll(PARAM)) s.params[Number(p[1]) - 1] = p[2] === 'NULL' ? null : p[3].replace(/''/g, "'");
    }
  }
  return out;
}
