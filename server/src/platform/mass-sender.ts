import { Readable } from 'node:stream';
import type { Socket } from 'node:net';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import type { FastifyBaseLogger } from 'fastify';

/**
 * The SMTP client of mass mailings: `poolSize` workers, each with one SMTP connection kept open
 * (opened on first use, opened again after an error, closed after `idleMs` without letters).
 *
 * What it adds to nodemailer's pool is the moment of hand-over. A letter's body goes to the
 * connection as our own stream; when that stream ends, every byte of the letter but the final
 * `<CRLF>.<CRLF>` has been written to the socket, and the caller's `onHandedOver` runs (the mailing
 * job appends `h <delivery>` to its journal with a synchronous write). Returning from it, the same
 * synchronous turn ends nodemailer's data stream, which writes the dot to the socket. So:
 * - no journal line: the server never received the dot, so it never took the letter;
 * - a journal line: the dot followed it, and the server has the letter unless it answers with an
 *   error (then `send` rejects with `handedOver: true` and the caller journals `x <delivery>`).
 * A lost reply after the dot (connection dropped, process killed) therefore counts as sent and the
 * letter is never sent twice. See docs/decisions/013-events-and-mailing.md for the residual window.
 */
export interface OutgoingLetter {
  envelope: { from: string; to: string };
  raw: string | Buffer;
}

/** 'accepted': the server answered 250. 'handed-over': the dot was written but the answer never came. */
export type MassSendResult = 'accepted' | 'handed-over';

export class MassSendError extends Error {
  constructor(
    message: string,
    /** The dot was written before the server refused the letter: it is not sent, journal `x`. */
    readonly handedOver: boolean,
    readonly responseCode?: number,
  ) {
    super(message);
  }
}

export interface MassSender {
  /** Sends one letter; `onHandedOver` runs synchronously right before the terminating dot is written. */
  send(letter: OutgoingLetter, onHandedOver: () => void): Promise<MassSendResult>;
  close(): Promise<void>;
}

export interface MassSenderOptions {
  smtpUrl: string;
  poolSize: number;
  log?: FastifyBaseLogger;
  /** Idle connections are closed (QUIT) after this long without letters. */
  idleMs?: number;
  /** A stuck connection fails within the mailing's delivery lease (60 s). */
  socketTimeoutMs?: number;
}

interface SmtpError extends Error {
  code?: string;
  responseCode?: number;
  response?: string;
}

interface Task {
  letter: OutgoingLetter;
  onHandedOver: () => void;
  resolve: (r: MassSendResult) => void;
  reject: (e: Error) => void;
}

function connectionOptions(smtpUrl: string, socketTimeout: number) {
  const u = new URL(smtpUrl);
  const secure = u.protocol === 'smtps:' || u.searchParams.get('secure') === 'true';
  const flag = (name: string) => (u.searchParams.has(name) ? u.searchParams.get(name) === 'true' : undefined);
  return {
    options: {
      host: u.hostname,
      port: u.port ? Number(u.port) : secure ? 465 : 587,
      secure,
      ignoreTLS: flag('ignoreTLS'),
      requireTLS: flag('requireTLS'),
      name: u.searchParams.get('name') ?? undefined,
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
      socketTimeout,
      tls: u.searchParams.get('tls.rejectUnauthorized') === 'false' ? { rejectUnauthorized: false } : undefined,
    },
    auth: u.username ? { user: decodeURIComponent(u.username), pass: decodeURIComponent(u.password) } : undefined,
  };
}

/**
 * The body of one letter. It ends only once the socket has taken every byte written so far (no
 * bytes queued in the process), so that after the journal line only the dot itself is left to write.
 */
class LetterStream extends Readable {
  private pushed = false;

  constructor(
    private readonly body: Buffer,
    private readonly socket: () => Socket | null,
  ) {
    super();
  }

  override _read(): void {
    if (!this.pushed) {
      this.pushed = true;
      this.push(this.body);
      return;
    }
    const finish = () => {
      const s = this.socket();
      if (s && !s.destroyed && s.writableLength > 0) {
        if (s.writableNeedDrain) s.once('drain', finish);
        else setImmediate(finish);
        return;
      }
      this.push(null);
    };
    finish();
  }
}

class Worker {
  private conn: SMTPConnection | null = null;
  private connecting: Promise<SMTPConnection> | null = null;
  private messages = 0;
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly cfg: ReturnType<typeof connectionOptions>,
    private readonly idleMs: number,
    private readonly log?: FastifyBaseLogger,
  ) {}

  private open(): Promise<SMTPConnection> {
    if (this.conn) return Promise.resolve(this.conn);
    this.connecting ??= new Promise<SMTPConnection>((resolve, reject) => {
      const c = new SMTPConnection(this.cfg.options);
      // Before the session is up, an error or a close fails the opening (connect() does not call back then).
      c.on('error', (err: Error) => {
        this.log?.warn({ err }, 'mass mail connection error');
        reject(err);
      });
      c.once('end', () => {
        if (this.conn === c) this.conn = null;
        reject(new Error('SMTP connection closed'));
      });
      c.connect((err) => {
        if (err) {
          c.close();
          return reject(err);
        }
        if (!this.cfg.auth) return resolve(c);
        c.login(this.cfg.auth, (loginErr) => {
          if (loginErr) {
            c.close();
            return reject(loginErr);
          }
          resolve(c);
        });
      });
    })
      .then((c) => {
        this.conn = c;
        this.messages = 0;
        return c;
      })
      .finally(() => {
        this.connecting = null;
      });
    return this.connecting;
  }

  private drop(c: SMTPConnection): void {
    if (this.conn === c) this.conn = null;
    c.close();
  }

  async run(task: Task): Promise<void> {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    try {
      // A connection that sent letters before may have been closed by the server meanwhile: when
      // not a byte of the letter went out, it is sent once more over a fresh connection.
      for (let attempt = 0; ; attempt++) {
        const c = await this.open();
        const reused = this.messages > 0;
        const outcome = await this.sendOn(c, task);
        if (outcome.kind === 'done') return task.resolve(outcome.result);
        if (outcome.kind === 'retry' && reused && attempt === 0) continue;
        return task.reject(outcome.error);
      }
    } catch (err) {
      task.reject(new MassSendError(String((err as Error)?.message ?? err), false, (err as SmtpError).responseCode));
    } finally {
      this.idleTimer = setTimeout(() => this.closeIdle(), this.idleMs);
      this.idleTimer.unref();
    }
  }

  private sendOn(c: SMTPConnection, task: Task): Promise<{ kind: 'done'; result: MassSendResult } | { kind: 'retry' | 'failed'; error: MassSendError }> {
    return new Promise((resolve) => {
      const body = typeof task.letter.raw === 'string' ? Buffer.from(task.letter.raw) : task.letter.raw;
      const socket = () => c._socket || null;
      const stream = new LetterStream(body, socket);
      let handedOver = false;
      let journalError: Error | null = null;
      // Registered before send() pipes the stream into nodemailer, so this listener runs before the
      // pipe's own 'end' listener, which ends the data stream and writes the dot in the same turn.
      stream.once('end', () => {
        const s = socket();
        if (!s || s.destroyed || !s.writable) return; // the dot cannot reach the server: not handed over
        try {
          task.onHandedOver();
          handedOver = true;
        } catch (err) {
          // The hand-over could not be recorded: the dot must not be written.
          journalError = err as Error;
          s.destroy();
        }
      });
      this.messages++;
      c.send(task.letter.envelope, stream, (err: SmtpError | null) => {
        if (!err) return resolve({ kind: 'done', result: 'accepted' });
        const answered = typeof err.responseCode === 'number' && err.responseCode >= 400;
        if (journalError) {
          this.drop(c);
          return resolve({ kind: 'failed', error: new MassSendError(`journal: ${journalError.message}`, false) });
        }
        if (handedOver && !answered) {
          // The dot was written and no answer came: the server may have the letter, so it counts as sent.
          this.drop(c);
          return resolve({ kind: 'done', result: 'handed-over' });
        }
        const error = new MassSendError(err.response ?? err.message, handedOver, err.responseCode);
        if (answered && err.responseCode !== 421 && (err.code === 'EENVELOPE' || err.code === 'EMESSAGE')) {
          // The server refused this letter; the session is fine once reset.
          c.reset((resetErr) => {
            if (resetErr) this.drop(c);
            resolve({ kind: 'failed', error });
          });
          return;
        }
        this.drop(c);
        resolve({ kind: answered || stream.readableDidRead ? 'failed' : 'retry', error });
      });
    });
  }

  private closeIdle(): void {
    this.idleTimer = null;
    const c = this.conn;
    this.conn = null;
    c?.quit();
  }

  close(): void {
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = null;
    this.conn?.quit();
    this.conn = null;
  }
}

export function createMassSender(opts: MassSenderOptions): MassSender {
  const cfg = connectionOptions(opts.smtpUrl, opts.socketTimeoutMs ?? 30_000);
  const idle: Worker[] = Array.from({ length: Math.max(1, opts.poolSize) }, () => new Worker(cfg, opts.idleMs ?? 30_000, opts.log));
  const queue: Task[] = [];

  const pump = () => {
    while (idle.length > 0 && queue.length > 0) {
      const w = idle.pop()!;
      const task = queue.shift()!;
      void w.run(task).finally(() => {
        idle.push(w);
        pump();
      });
    }
  };
  const all = [...idle];

  return {
    send(letter, onHandedOver) {
      return new Promise<MassSendResult>((resolve, reject) => {
        queue.push({ letter, onHandedOver, resolve, reject });
        pump();
      });
    },
    async close() {
      for (const t of queue.splice(0)) t.reject(new MassSendError('mass sender closed', false));
      for (const w of all) w.close();
    },
  };
}
