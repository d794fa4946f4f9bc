import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';
import { createMassSender, type MassSendResult, type OutgoingLetter } from './mass-sender.ts';
import { htmlToText } from './html.ts';

export interface MailMessage {
  to: string;
  subject: string;
  html: string;
  text?: string;
  /** Extra headers, e.g. List-Unsubscribe of mass letters. */
  headers?: Record<string, string>;
  /** A stable Message-ID (<...@host>) lets a receiving server drop a letter re-sent after a crash. */
  messageId?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** Where mail goes, for the start banner. */
  describe(): string;
  /** Closes pooled connections. */
  close?(): Promise<void>;
  /**
   * Sends a mass letter already in MIME form (see mass-letter.ts and mass-sender.ts): `onHandedOver`
   * runs synchronously right before the server can have the whole letter (the terminating dot).
   */
  sendMass?(letter: OutgoingLetter, onHandedOver: () => void): Promise<MassSendResult>;
}

/** A pooled SMTP URL: the given one with pool=true and `poolSize` connections unless it says otherwise. */
export function pooledSmtpUrl(smtpUrl: string, poolSize: number): string {
  const u = new URL(smtpUrl);
  if (!u.searchParams.has('pool')) u.searchParams.set('pool', 'true');
  if (!u.searchParams.has('maxConnections')) u.searchParams.set('maxConnections', String(poolSize));
  if (!u.searchParams.has('maxMessages')) u.searchParams.set('maxMessages', '1000000');
  // A stuck connection fails within the mailing's delivery lease (60 s) instead of nodemailer's 10 minutes.
  if (!u.searchParams.has('socketTimeout')) u.searchParams.set('socketTimeout', '30000');
  return u.toString();
}

/**
 * SMTP when a URL is given (smtp://user:pass@host:port), otherwise .eml files in the outbox folder.
 * SMTP connections are pooled and reused: event mail through nodemailer's pool, mass mail through
 * its own `poolSize` connections (mass-sender.ts), so a mailing does not open a connection per letter.
 */
export function createMailer(opts: { smtpUrl?: string; outboxDir: string; from: string; log: FastifyBaseLogger; poolSize?: number }): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(pooledSmtpUrl(opts.smtpUrl, opts.poolSize ?? 5));
    const mass = createMassSender({ smtpUrl: opts.smtpUrl, poolSize: opts.poolSize ?? 5, log: opts.log });
    return {
      async send(m) {
        await transport.sendMail({
          from: opts.from,
          to: m.to,
          subject: m.subject,
          html: m.html,
          text: m.text ?? htmlToText(m.html),
          headers: m.headers,
          messageId: m.messageId,
        });
      },
      sendMass: (letter, onHandedOver) => mass.send(letter, onHandedOver),
      describe: () => `SMTP ${new URL(opts.smtpUrl!).host}`,
      async close() {
        transport.close();
        await mass.close();
      },
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(m) {
      const info = await transport.sendMail({
        from: opts.from,
        to: m.to,
        subject: m.subject,
        html: m.html,
        text: m.text ?? htmlToText(m.html),
        headers: m.headers,
        messageId: m.messageId,
      });
      await fs.mkdir(opts.outboxDir, { recursive: true });
      const file = path.join(opts.outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${crypto.randomUUID().slice(0, 8)}.eml`);
      await fs.writeFile(file, info.message as Buffer);
      opts.log.info({ to: m.to, subject: m.subject, file }, 'mail written to outbox');
    },
    async sendMass(letter, onHandedOver) {
      await fs.mkdir(opts.outboxDir, { recursive: true });
      // The stand-in takes the letter whole the moment the file is written.
      onHandedOver();
      await fs.writeFile(path.join(opts.outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${crypto.randomUUID().slice(0, 8)}.eml`), letter.raw);
      return 'accepted';
    },
    describe: () => `outbox folder ${opts.outboxDir}`,
  };
}
