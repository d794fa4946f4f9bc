/** Tiny `--name value` / `--flag` parser: enough for the bench scripts, no dependency. */
export interface Args {
  string(name: string, fallback: string): string;
  number(name: string, fallback: number): number;
  flag(name: string): boolean;
  has(name: string): boolean;
}

export function parseArgs(argv: string[] = process.argv.slice(2)): Args {
  const values = new Map<string, string | true>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith('--')) throw new Error(`Unexpected argument ${arg}`);
    const eq = arg.indexOf('=');
    if (eq > 0) {
      values.set(arg.slice(2, eq), arg.slice(eq + 1));
    } else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) {
      values.set(arg.slice(2), argv[++i]);
    } else {
      values.set(arg.slice(2), true);
    }
  }
  return {
    string: (name, fallback) => {
      const v = values.get(name);
      return typeof v === 'string' ? v : fallback;
    },
    number: (name, fallback) => {
      const v = values.get(name);
      if (v === undefined) return fallback;
      const n = Number(v);
      if (v === true || !Number.isFinite(n)) throw new Error(`--${name} needs a number`);
      return n;
    },
    flag: (name) => values.get(name) === true || values.get(name) === 'true',
    has: (name) => values.has(name),
  };
}
