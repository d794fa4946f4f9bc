import fs from 'node:fs';
import { apiGetSql } from './api-get-sql.ts';
import type { ManagerScenario } from './manager-scenarios.ts';
import type { LoggedStatement } from './pg-log.ts';
import { resultsPath } from './results.ts';
import type { SearchQuery } from './search-words.ts';
import { TOKEN_PREFIX, type TokensFile } from './sessions.ts';

// pgbench scripts with the SQL the server sends (bench/results/captured-sql.json, written by
// capture-sql.ts): every $n of a captured statement becomes a pgbench variable, which pgbench
// sends as a parameter in extended and prepared mode, as node-postgres does. Values that vary per
// request (the user, the token's hash, the search words) come from one helper statement per
// transaction (`select ... \gset`); its cost is reported apart (pgbench -r) so it can be taken out.

export interface CapturedProbe {
  request: { method: string; path: string; body?: unknown; token: string };
  known: Record<string, string>;
  status: number;
  statements: LoggedStatement[];
  /** The same call with other filter values (manager-area probes): what varies is a parameter, the rest constants. */
  alt?: { request: CapturedProbe['request']; known: Record<string, string>; status: number; statements: LoggedStatement[] };
}

export interface CapturedSql {
  captured_at: string;
  database: string;
  probes: Record<string, CapturedProbe>;
}

export interface BenchScript {
  /** Scenario key, shared with load.ts (api-get, entries-user, search). */
  key: string;
  /** pgbench -f arguments: file@weight. */
  files: Array<{ file: string; weight: number; text: string }>;
  /** Index (in pgbench -r's list of commands of the first file) of the helper statement, or -1. */
  helperCommand: number;
  source: 'captured' | 'copied';
  statements: number;
  /** pgbench -D name=value: constants the statements use (the operator's token hash). */
  defines?: Record<string, string>;
}

export function readCaptured(): CapturedSql | null {
  const file = resultsPath('captured-sql.json');
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as CapturedSql) : null;
}

const isRead = (s: LoggedStatement) => /^\s*(select|with)\b/i.test(s.sql);
const quote = (v: string) => `'${v.replace(/'/g, "''")}'`;
const arrayLiteral = (items: Array<string | number>) =>
  quote(`{${items.map((i) => (typeof i === 'number' ? String(i) : `"${i.replace(/["\\]/g, (c) => `\\${c}`)}"`)).join(',')}}`);

/**
 * The read statements of a probe as pgbench SQL: $n -> :name when the value is a known one (uid,
 * th, w1...), -> :nV (a `\set nV V` variable) for other integers, else a literal (reported).
 */
function statementsOf(probe: CapturedProbe, warnings: string[]): { sets: string[]; sql: string[] } {
  const sets = new Set<string>();
  const sql = probe.statements.filter(isRead).map((s) => {
    const text = s.sql.trim().replace(/\$(\d+)\b/g, (_m, n: string) => {
      const value = s.params[Number(n) - 1];
      if (value === null || value === undefined) return 'null';
      const known = Object.entries(probe.known).find(([, v]) => v === value);
      if (known) return `:${known[0]}`;
      if (/^\d+$/.test(value)) {
        sets.add(`\\set n${value} ${value}`);
        return `:n${value}`;
      }
      warnings.push(`a literal stays in the script: ${value}`);
      return quote(value);
    });
    return `${text};`;
  });
  return { sets: [...sets], sql };
}

/**
 * Like statementsOf, but a $n becomes a variable only when its value is that variable's in both
 * captures (probe and alt, made with different filter values) and differs between them; the
 * constants of the query (equal in both) stay constants even when they equal a filter value.
 */
function statementsByDiff(probe: CapturedProbe, warnings: string[]): { sets: string[]; sql: string[] } {
  const alt = probe.alt!;
  const a = probe.statements.filter(isRead);
  const b = alt.statements.filter(isRead);
  if (a.length !== b.length || a.some((s, i) => s.sql !== b[i].sql)) {
    warnings.push(`${probe.request.path}: the two captures differ in their statements; mapping by value only`);
    return statementsOf(probe, warnings);
  }
  const sets = new Set<string>();
  const sql = a.map((s, i) => {
    const text = s.sql.trim().replace(/\$(\d+)\b/g, (_m, n: string) => {
      const value = s.params[Number(n) - 1];
      const other = b[i].params[Number(n) - 1];
      if (value === null || value === undefined) return 'null';
      if (value !== other) {
        const name = Object.keys(probe.known).find((k) => probe.known[k] === value && alt.known[k] === other);
        if (name) return `:${name}`;
        warnings.push(`${probe.request.path}: $${n} varies (${value} / ${other}) but matches no variable; kept as a literal`);
      } else if (probe.known.th === value) {
        return ':th';
      }
      if (/^\d+$/.test(value)) {
        sets.add(`\\set n${value} ${value}`);
        return `:n${value}`;
      }
      return quote(value);
    });
    return `${text};`;
  });
  return { sets: [...sets], sql };
}

const tokenHash = (expr: string) => `encode(sha256(convert_to('${TOKEN_PREFIX}' || ${expr}, 'UTF8')), 'hex')`;

function write(name: string, lines: string[]): { file: string; text: string } {
  const text = lines.join('\n') + '\n';
  const file = resultsPath(name);
  fs.writeFileSync(file, text);
  return { file, text };
}

/** GET /api/get: the captured statement(s) for a random session of tokens.json, or the server's query rendered in api-get-sql.ts. */
export function apiGetScript(tokens: TokensFile, captured: CapturedSql | null, warnings: string[]): BenchScript {
  const header = `\\set uid random(${tokens.first_user_id}, ${tokens.last_user_id})`;
  const probe = captured?.probes['api-get'];
  if (probe && probe.status === 200) {
    const { sets, sql } = statementsOf(probe, warnings);
    // The token's hash is computed in SQL from the user id (no helper round trip needed).
    const lines = [
      '-- GET /api/get, from bench/results/captured-sql.json (capture-sql.ts)',
      header,
      ...sets,
      ...sql.map((s) => s.replace(/:th\b/g, tokenHash(':uid'))),
    ];
    const f = write('api-get.pgbench', lines);
    return { key: 'api-get', files: [{ ...f, weight: 1 }], helperCommand: -1, source: 'captured', statements: sql.length };
  }
  const toPgbench = (s: string, value: string) => `${s.trim().replace(/\$1\b/g, value)};`;
  const lines = [
    '-- GET /api/get, rendered from the server query builder (bench/src/lib/api-get-sql.ts)',
    header,
    // One statement: the session check is inside the current-user query.
    toPgbench(apiGetSql().replace(/\n\s*/g, ' '), tokenHash(':uid')),
  ];
  const f = write('api-get.pgbench', lines);
  return { key: 'api-get', files: [{ ...f, weight: 1 }], helperCommand: -1, source: 'copied', statements: 1 };
}

/** GET /api/entry as one of the busiest clients (tokens.json `heavy`), default page. */
export function entriesUserScript(tokens: TokensFile, captured: CapturedSql | null, warnings: string[]): BenchScript {
  const probe = captured?.probes['entries-user'];
  if (!probe) throw new Error('bench/results/captured-sql.json has no entries-user probe: run capture-sql.ts first.');
  if (!tokens.heavy?.length) throw new Error('tokens.json has no heavy sessions: run generate.ts with --entries.');
  const ids = tokens.heavy.map((h) => h.user_id);
  const { sets, sql } = statementsOf(probe, warnings);
  const lines = [
    '-- GET /api/entry as a busy client, from bench/results/captured-sql.json (capture-sql.ts)',
    `\\set k random(1, ${ids.length})`,
    ...sets,
    `select x.uid, ${tokenHash('x.uid')} as th from (select (${arrayLiteral(ids)}::int[])[:k] as uid) x \\gset`,
    ...sql,
  ];
  const f = write('entries-user.pgbench', lines);
  return { key: 'entries-user', files: [{ ...f, weight: 1 }], helperCommand: 1 + sets.length, source: 'captured', statements: sql.length };
}

/** POST /api/service/search as a random session user: one-word and two-word queries in the load's proportion. */
export function searchScript(tokens: TokensFile, captured: CapturedSql | null, queries: SearchQuery[], warnings: string[]): BenchScript {
  const files: BenchScript['files'] = [];
  let statements = 0;
  let helperCommand = -1;
  for (const words of [1, 2]) {
    const probe = captured?.probes[`search-${words}`];
    if (!probe) throw new Error(`bench/results/captured-sql.json has no search-${words} probe: run capture-sql.ts first.`);
    const list = queries.filter((q) => q.words.length === words).map((q) => q.words.join(' '));
    if (list.length === 0) continue;
    const { sets, sql } = statementsOf(probe, warnings);
    const patterns = Array.from({ length: words }, (_, i) => `'%' || split_part(x.q, ' ', ${i + 1}) || '%' as w${i + 1}`).join(', ');
    const lines = [
      `-- POST /api/service/search with ${words} word(s), from bench/results/captured-sql.json (capture-sql.ts)`,
      `\\set uid random(${tokens.first_user_id}, ${tokens.last_user_id})`,
      `\\set k random(1, ${list.length})`,
      ...sets,
      `select ${tokenHash(':uid')} as th, ${patterns} from (select (${arrayLiteral(list)}::text[])[:k] as q) x \\gset`,
      ...sql,
    ];
    const f = write(`search-${words}.pgbench`, lines);
    files.push({ ...f, weight: list.length });
    statements = Math.max(statements, sql.length);
    helperCommand = 2 + sets.length;
  }
  return { key: 'search', files, helperCommand, source: 'captured', statements };
}

/**
 * A manager-area scenario (lib/manager-scenarios.ts): the captured statements of its probe, the
 * operator's token hash as a constant (`defines`: pgbench -D th=...), and the filter's value picked
 * per transaction from the scenario's list by one helper statement (none when the value never varies).
 */
export function managerScript(scenario: ManagerScenario, captured: CapturedSql | null, operatorTokenHash: string, warnings: string[]): BenchScript {
  const probe = captured?.probes[scenario.key];
  if (!probe) throw new Error(`bench/results/captured-sql.json has no ${scenario.key} probe: run capture-sql.ts first.`);
  if (probe.status !== 200) throw new Error(`the ${scenario.key} probe answered ${probe.status} when captured`);
  const { sets, sql } = probe.alt ? statementsByDiff(probe, warnings) : statementsOf(probe, warnings);
  const names = Object.keys(scenario.values[0].vars);
  const varying = names.length > 0 && scenario.values.length > 0;
  const lines = [`-- ${scenario.name}: ${probe.request.method} ${probe.request.path}, from bench/results/captured-sql.json (capture-sql.ts)`, ...sets];
  let helperCommand = -1;
  if (varying) {
    lines.push(`\\set k random(1, ${scenario.values.length})`);
    const columns = names.map((n) => `(${arrayLiteral(scenario.values.map((v) => v.vars[n]))}::text[])[:k] as ${n}`);
    lines.push(`select ${columns.join(', ')} \\gset`);
    helperCommand = sets.length + 1;
  }
  lines.push(...sql);
  const used = sql.join('\n');
  for (const n of names) if (!new RegExp(`:${n}\\b`).test(used)) warnings.push(`${scenario.key}: the variable :${n} is not used by the captured SQL`);
  const f = write(`${scenario.key}.pgbench`, lines);
  return { key: scenario.key, files: [{ ...f, weight: 1 }], helperCommand, source: 'captured', statements: sql.length, defines: { th: operatorTokenHash } };
}
