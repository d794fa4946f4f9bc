import pg from 'pg';

export function databaseUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('Set DATABASE_URL, e.g. postgres://postgres@127.0.0.1:5432/edu_bench');
  return url;
}

export function openPool(max = 4): pg.Pool {
  return new pg.Pool({ connectionString: databaseUrl(), max });
}

/** Runs fn in a transaction on one client of the pool. */
export async function inTransaction<T>(pool: pg.Pool, fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('begin');
    const result = await fn(client);
    await client.query('commit');
    return result;
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/** Runs tasks with at most `concurrency` of them at a time (one per pool connection). */
export async function runLimited(tasks: Array<() => Promise<void>>, concurrency: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) await tasks[next++]();
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, tasks.length) }, worker));
}
