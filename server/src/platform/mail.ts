import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { FastifyBaseLogger } from 'fastify';

export interface MailMessage {
  to: string;
  subject: string;
  html: string;
  text?: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  /** Where mail goes, for the start banner. */
  describe(): string;
}

/** SMTP when a URL is given (smtp://user:pass@host:port), otherwise .eml files in the outbox folder. */
export function createMailer(opts: { smtpUrl?: string; outboxDir: string; from: string; log: FastifyBaseLogger }): Mailer {
  if (opts.smtpUrl) {
    const transport = nodemailer.createTransport(opts.smtpUrl);
    return {
      async send(m) {
        await transport.sendMail({ from: opts.from, to: m.to, subject: m.subject, html: m.html, text: m.text ?? htmlToText(m.html) });
      },
      describe: () => `SMTP ${new URL(opts.smtpUrl!).host}`,
    };
  }
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(m) {
      const info = await transport.sendMail({ from: opts.from, to: m.to, subject: m.subject, html: m.html, text: m.text ?? htmlToText(m.html) });
      await fs.mkdir(opts.outboxDir, { recursive: true });
      const file = path.join(opts.outboxDir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${crypto.randomUUID().slice(0, 8)}.eml`);
      await fs.writeFile(file, info.message as Buffer);
      opts.log.info({ to: m.to, subject: m.subject, file }, 'mail written to outbox');
    },
    describe: () => `outbox folder ${opts.outboxDir}`,
  };
}

export function htmlToText(html: string): string {
  return html
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|h\d|li)>/gi, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]);
}

/** Replaces {macro.name} in a template with escaped values; unknown macros stay as they are. */
export function fillMacros(template: string, values: Record<string, string | number | null | undefined>): string {
  return template.replace(/\{([a-zA-Z_][\w.]*)\}/g, (whole, name: string) => {
    const v = values[name];
    return v === undefined || v === null ? whole : escapeHtml(String(v));
  });
}
