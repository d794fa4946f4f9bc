import type { Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';

/**
 * What the scripted server does once it has a whole letter (after the dot): answer 250, answer an
 * error, drop the connection without an answer (a lost 250) or never answer (the sender is killed
 * while waiting).
 */
export type Reaction = 'ok' | 'drop' | 'hang' | { code: number; message: string };

export interface Received {
  to: string;
  messageId: string;
  /** The reaction the server gave; only 'ok' ones were answered 250. */
  reaction: 'ok' | 'drop' | 'hang' | number;
}

/** A real SMTP server on 127.0.0.1 whose answers a test chooses per letter. */
export async function startScriptedSmtp(opts: { onLetter?: (to: string, nth: number) => Reaction; refuseRcpt?: (to: string) => string | null } = {}) {
  const received: Received[] = [];
  const sockets = new Map<number, Socket>();
  let connections = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onRcptTo(address, _session, callback) {
      const refusal = opts.refuseRcpt?.(address.address);
      if (refusal) return callback(Object.assign(new Error(refusal), { responseCode: 550 }));
      callback();
    },
    onData(stream, session, callback) {
      let head = '';
      stream.on('data', (chunk: Buffer) => {
        if (head.length < 16_384) head += chunk.toString('latin1');
      });
      stream.on('end', () => {
        const to = session.envelope.rcptTo[0]?.address ?? '';
        const messageId = /^Message-ID:\s*(<[^>\r\n]+>)/im.exec(head)?.[1] ?? '';
        const nth = received.filter((r) => r.to === to).length + 1;
        const reaction = opts.onLetter?.(to, nth) ?? 'ok';
        received.push({ to, messageId, reaction: typeof reaction === 'string' ? reaction : reaction.code });
        if (reaction === 'ok') return callback();
        if (reaction === 'hang') return;
        if (reaction === 'drop') return sockets.get(session.remotePort)?.destroy();
        callback(Object.assign(new Error(reaction.message), { responseCode: reaction.code }));
      });
    },
  });
  server.on('error', () => {
    // clients that are destroyed mid-session reset their connections
  });
  server.server.on('connection', (socket: Socket) => {
    connections++;
    const port = socket.remotePort!;
    sockets.set(port, socket);
    socket.once('close', () => sockets.delete(port));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** Letters answered 250 or whose answer was lost, by recipient: what a mailbox would show. */
    delivered(to: string) {
      return received.filter((r) => r.to === to && (r.reaction === 'ok' || r.reaction === 'drop' || r.reaction === 'hang')).length;
    },
    connections: () => connections,
    openConnections: () => sockets.size,
    /** The server ends every connection, as one does after its idle timeout. */
    closeAll() {
      for (const s of sockets.values()) s.destroy();
    },
    close() {
      for (const s of sockets.values()) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
