import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * A local append-only record of letters handed to the SMTP server, written synchronously (a few
 * bytes; the page cache keeps them through a kill -9 of the process). Lines:
 * - `h <id>`: handed over, written right before the letter's terminating dot goes to the socket
 *   (see platform/mass-sender.ts), so the server cannot have a letter without this line;
 * - `<id>`: accepted, the server answered 250;
 * - `x <id>`: the server refused the letter after the hand-over; it is not sent and is retried.
 * A delivery counts as sent when, in some journal, its last line is `h` or accepted. The database is
 * told in batches; after a crash the next sender reads every journal of the mailing first, so a
 * letter handed over just before the crash (even if its 250 never arrived) is not sent again. The
 * folder is under DATA_DIR, which several instances share (see README).
 */
export class MailingJournal {
  private fd: number | null = null;
  private readonly file: string;

  constructor(
    private readonly dir: string,
    private readonly mailingId: number,
  ) {
    this.file = path.join(dir, `${mailingId}-${process.pid}-${randomBytes(4).toString('hex')}.log`);
  }

  private write(line: string): void {
    if (this.fd === null) {
      fs.mkdirSync(this.dir, { recursive: true });
      this.fd = fs.openSync(this.file, 'a');
    }
    fs.writeSync(this.fd, line);
  }

  /** The letter's last byte but the dot is at the socket; the dot follows in the same turn. */
  handedOver(deliveryId: number): void {
    this.write(`h ${deliveryId}\n`);
  }

  /** The server answered 250. */
  record(deliveryId: number): void {
    this.write(`${deliveryId}\n`);
  }

  /** The server refused the letter after the hand-over: not sent. */
  failed(deliveryId: number): void {
    this.write(`x ${deliveryId}\n`);
  }

  close(): void {
    if (this.fd !== null) fs.closeSync(this.fd);
    this.fd = null;
  }

  private static files(dir: string, mailingId: number): string[] {
    if (!fs.existsSync(dir)) return [];
    return fs
      .readdirSync(dir)
      .filter((f) => f.startsWith(`${mailingId}-`) && f.endsWith('.log'))
      .map((f) => path.join(dir, f));
  }

  /** Sent delivery ids by the journal's rules, from a journal's text. */
  static sentIds(text: string): number[] {
    const sent = new Map<number, boolean>();
    for (const line of text.split('\n')) {
      const m = /^(?:([hx]) )?(\d+)$/.exec(line);
      if (m) sent.set(Number(m[2]), m[1] !== 'x');
    }
    return [...sent].filter(([, s]) => s).map(([id]) => id);
  }

  /** Delivery ids sent by any sender of the mailing, and the files that are idle for `idleMs`. */
  static read(dir: string, mailingId: number, idleMs: number): { ids: number[]; idleFiles: string[] } {
    const ids = new Set<number>();
    const idleFiles: string[] = [];
    for (const file of MailingJournal.files(dir, mailingId)) {
      for (const id of MailingJournal.sentIds(fs.readFileSync(file, 'utf8'))) ids.add(id);
      if (Date.now() - fs.statSync(file).mtimeMs > idleMs) idleFiles.push(file);
    }
    return { ids: [...ids], idleFiles };
  }

  static remove(files: string[]): void {
    for (const f of files) fs.rmSync(f, { force: true });
  }

  static removeAll(dir: string, mailingId: number): void {
    MailingJournal.remove(MailingJournal.files(dir, mailingId));
  }
}
