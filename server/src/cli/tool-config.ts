import { ConfigError, loadConfig, type Config } from '../platform/config.ts';

/**
 * The settings of a command-line tool (import, backup, restore): only the database and the file
 * store matter, so the payment mode is not asked and no demo data is seeded. A bad setting ends the
 * tool with its message.
 */
export function toolConfig(): Config {
  try {
    return loadConfig({ ...process.env, PAYMENTS: 'off' }, { seedDemo: false });
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(err.message);
    process.exit(1);
  }
}
