import type { Config } from './config.ts';
import type { Database } from './db.ts';
import { seedDemo, seedDictionaries, type DemoCredentials } from '../db/seed/seed.ts';

/**
 * Migrations, dictionaries and (outside production) the demo data, under one cluster-wide lock so
 * that several app instances starting together against one PostgreSQL do it once.
 */
export function prepareDatabase(database: Database, config: Pick<Config, 'seedDemo' | 'demoPassword'>): Promise<DemoCredentials | null> {
  return database.withStartupLock(async () => {
    await database.migrate();
    await seedDictionaries(database.db);
    return config.seedDemo ? seedDemo(database.db, { password: config.demoPassword }) : null;
  });
}
