import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/**
 * A local append-only record of letters the SMTP server has accepted, written synchronously the
 * moment the acceptance arrives (a few bytes; the page cache keeps them through a kill -9 of the
 * process). The database is told in batches; after a crash the next sender reads every journal of
 * the mailing first, so a letter accepted just before the crash is not sent again. The folder is
 * under DATA_DIR, which several instances share (see README).
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

  record(deliveryId: number): void {
    if (this.fd === null) {
      fs.mkdirSync(this.dir, { recursive: true });
      this.fd = fs.openSync(this.file, 'a');
    }
    fs.writeSync(this.fd, `${deliveryId}\n`);
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

  /** Delivery ids recorded by any sender of the mailing, and the files that are idle for `idleMs`. */
  static read(dir: string, mailingId: number, idleMs: number): { ids: number[]; idleFiles: string[] } {
    const ids: number[] = [];
    const idleFiles: string[] = [];
    for (const file of MailingJournal.files(dir, mailingId)) {
      for (const line of fs.readFileSync(file, 'utf8').split('\n')) if (/^\d+$/.test(line)) ids.push(Number(line));
      if (Date.now() - fs.statSync(file).mtimeMs > idleMs) idleFiles.push(file);
    }
    return { ids, idleFiles };
  }

  static remove(files: string[]): void {
    for (const f of files) fs.rmSync(f, { force: true });
  }

  static removeAll(dir: string, mailingId: number): void {
    MailingJournal.remove(MailingJournal.files(dir, mailingId));
  }
}
