import { SMTPServer } from 'smtp-server';

/**
 * A local SMTP server that accepts everything and counts it: letters per Message-ID and per
 * recipient, with the time of each, so a bench can tell duplicates and losses apart. It keeps no
 * bodies (100 000 letters would not fit comfortably in memory).
 */
export interface SinkStats {
  total: number;
  byMessageId: Map<string, number>;
  byRecipient: Map<string, number>;
  /** Arrival times (ms since epoch) of letters whose Message-ID starts with a prefix. */
  times: Map<string, number[]>;
}

export async function startSink(opts: { timePrefixes?: (messageId: string) => string | null } = {}) {
  const stats: SinkStats = { total: 0, byMessageId: new Map(), byRecipient: new Map(), times: new Map() };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    banner: 'bench sink',
    onData(stream, session, callback) {
      let head = '';
      stream.on('data', (chunk: Buffer) => {
        if (head.length < 16_384 && !head.includes('\r\n\r\n')) head += chunk.toString('latin1');
      });
      stream.on('end', () => {
        const id = /^Message-ID:\s*(<[^>\r\n]+>)/im.exec(head)?.[1] ?? '(none)';
        stats.total++;
        stats.byMessageId.set(id, (stats.byMessageId.get(id) ?? 0) + 1);
        for (const r of session.envelope.rcptTo) stats.byRecipient.set(r.address, (stats.byRecipient.get(r.address) ?? 0) + 1);
        const key = opts.timePrefixes?.(id);
        if (key) {
          const list = stats.times.get(key) ?? [];
          list.push(Date.now());
          stats.times.set(key, list);
        }
        callback();
      });
    },
  });
  // A client killed mid-session (the kill -9 of the bench) resets its connection; that is expected.
  server.on('error', (err: Error & { code?: string }) => {
    if (err.code !== 'ECONNRESET' && err.code !== 'EPIPE') console.error('smtp sink:', err.message);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return { url: `smtp://127.0.0.1:${port}`, stats, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}
