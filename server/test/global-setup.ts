import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openPglite, openPostgres } from '../src/platform/db.ts';
import { seedDictionaries } from '../src/db/seed/seed.ts';

// Builds one migrated, dictionary-seeded database, and each test file gets a copy of it:
// a PGlite data dump loaded per file, or on PostgreSQL (TEST_DB=postgres) a database created
// from a template database.

declare module 'vitest' {
  export interface ProvidedContext {
    dbKind: 'pglite' | 'postgres';
    pgliteDump: string;
    pgTemplate: string;
    pgAdminUrl: string;
  }
}

export function testDbKind(): 'pglite' | 'postgres' {
  return process.env.TEST_DB === 'postgres' ? 'postgres' : 'pglite';
}

export function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export default async function setup(project: TestProject) {
  const kind = testDbKind();
  project.provide('dbKind', kind);
  if (kind === 'pglite') {
    const database = await openPglite(undefined);
    await database.migrate();
    await seedDictionaries(database.db);
    const dump = Buffer.from(await (await database.dump!()).arrayBuffer());
    const file = path.join(os.tmpdir(), `edu-test-${process.pid}.tar.gz`);
    await fs.writeFile(file, dump);
    await database.close();
    project.provide('pgliteDump', file);
    project.provide('pgTemplate', '');
    project.provide('pgAdminUrl', '');
    return async () => {
      await fs.rm(file, { force: true });
    };
  }

  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DB=postgres needs TEST_DATABASE_URL');
  const template = `edu_tpl_${process.pid}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`drop database if exists ${template}`);
  await admin.query(`create database ${template}`);
  const database = openPostgres(withDatabase(adminUrl, template), 2);
  await database.migrate();
  await seedDictionaries(database.db);
  await database.close();
  project.provide('pgliteDump', '');
  project.provide('pgTemplate', template);
  project.provide('pgAdminUrl', adminUrl);
  return async () => {
    const { rows } = await admin.query<{ datname: string }>(`select datname from pg_database where datname like $1 || '_f%' or datname = $1`, [template]);
    for (const r of rows) await admin.query(`drop database if exists ${r.datname} with (force)`);
    await admin.end();
  };
}
