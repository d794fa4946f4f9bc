import type { Config } from './config.ts';

/**
 * The Fastify logger's options for the console: one JSON line per record (production, or output to a
 * file or a pipe), or readable coloured lines through pino-pretty on a terminal outside production
 * (config.log.pretty): one line per record with its fields, so a demo letter is one line to read.
 */
export async function consoleLogger(log: Config['log']): Promise<{ level: string; stream?: NodeJS.WritableStream }> {
  if (!log.pretty) return { level: log.level };
  const { default: pretty } = await import('pino-pretty');
  // Written at once (sync): a terminal's few lines are not worth losing to process.exit on a signal.
  return { level: log.level, stream: pretty({ colorize: true, singleLine: true, sync: true, translateTime: 'SYS:HH:MM:ss', ignore: 'pid,hostname' }) };
}
