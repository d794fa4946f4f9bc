import type { Config } from './config.ts';
import type { Database } from './db.ts';
import type { FileStore } from './files.ts';
import { seedDemo, seedDictionaries, type DemoCredentials } from '../db/seed/seed.ts';
import { seedShippedTemplates, upgradeShippedTemplates } from '../db/seed/templates/shipped-templates.ts';

/**
 * Migrations, dictionaries, the shipped default templates (every install, production included; they
 * need the file store) and (outside production) the demo data, under one cluster-wide lock so that
 * several app instances starting together against one PostgreSQL do it once.
 */
export function prepareDatabase(database: Database, config: Pick<Config, 'seedDemo' | 'demoPassword'>, files?: FileStore): Promise<DemoCredentials | null> {
  return database.withStartupLock(async () => {
    await database.migrate();
    await seedDictionaries(database.db);
    if (files) {
      await seedShippedTemplates(database.db, files);
      await upgradeShippedTemplates(database.db, files);
    }
    return config.seedDemo ? seedDemo(database.db, { password: config.demoPassword }) : null;
  });
}
