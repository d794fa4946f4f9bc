import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Where things go (docs/where-things-go.md), checked on the source: roles are compared in one
// place (domain/common/codes.ts: isOperator, isGuest), so access lives in the hook and the policy
// modules, not in scattered comparisons; route files call rules and repositories and hold no SQL.

const root = path.resolve(import.meta.dirname, '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))
    .map((f) => path.join(dir, f));
}

/** `file:line: text` of every line in `files` that matches `pattern`. */
function linesMatching(files: string[], pattern: RegExp): string[] {
  return files.flatMap((file) =>
    readFileSync(path.join(root, file), 'utf8')
      .split('\n')
      .flatMap((line, i) => (pattern.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
  );
}

describe('the source keeps each fact in its place', () => {
  it('compares roles only in domain/common/codes.ts', () => {
    const files = [...sourceFiles('server/src'), ...sourceFiles('web/src'), ...sourceFiles('domain/src')].filter(
      (f) => f !== path.join('domain/src/common/codes.ts'),
    );
    expect(linesMatching(files, /\brole\s*[!=]==|[!=]==\s*Role\.|Role\.\w+\s*[!=]==/)).toEqual([]);
  });

  it('keeps SQL out of the route files', () => {
    const routeFiles = sourceFiles('server/src').filter((f) => /routes\.ts$/.test(f));
    expect(routeFiles.length).toBeGreaterThan(20);
    expect(linesMatching(routeFiles, /\bsql`|\b(db|tx|database)\s*\.\s*(select|insert|update|delete|execute)\b|^\s*\.(select|insert|update|delete)\(/)).toEqual(
      [],
    );
  });

  it('seeds the demo through rules and repositories, never through a route module', () => {
    expect(linesMatching(sourceFiles('server/src/db'), /from '[^']*routes\.ts'/)).toEqual([]);
  });
});
