// MIME of mass letters, built by hand: the same letter goes to many people with only the address,
// Message-ID and unsubscribe link changing, and composing it with nodemailer's MailComposer for each
// recipient costs about half a millisecond of CPU per letter, which is most of a mailing's cost.
// The shape is the common one: multipart/alternative with a text and an HTML part, both UTF-8 in
// base64, RFC 2047 encoded words in headers.

const CRLF = '\r\n';

function wrap76(b64: string): string {
  const lines: string[] = [];
  for (let i = 0; i < b64.length; i += 76) lines.push(b64.slice(i, i + 76));
  return lines.join(CRLF);
}

/** RFC 2047 B-encoded words (at most 75 characters each), split on character boundaries. */
export function encodeWords(value: string): string {
  if (/^[\x20-\x7e]*$/.test(value)) return value;
  const words: string[] = [];
  let chunk = '';
  for (const ch of value) {
    if (Buffer.byteLength(chunk + ch) > 45) {
      words.push(chunk);
      chunk = '';
    }
    chunk += ch;
  }
  if (chunk) words.push(chunk);
  return words.map((w) => `=?UTF-8?B?${Buffer.from(w).toString('base64')}?=`).join(`${CRLF} `);
}

/** 'Name <addr@host>' or 'addr@host' as a From header value and the envelope address. */
export function parseFrom(from: string): { header: string; address: string } {
  const m = /^\s*(.*?)\s*<([^>]+)>\s*$/.exec(from);
  if (!m) return { header: from.trim(), address: from.trim() };
  const name = m[1].replace(/^"|"$/g, '');
  return { header: name ? `${encodeWords(name)} <${m[2]}>` : `<${m[2]}>`, address: m[2] };
}

export interface MassLetter {
  to: string;
  messageId: string;
  html: string;
  text: string;
  headers: Record<string, string>;
  /** This recipient's own subject (its macros filled); the mailing's otherwise. */
  subject?: string;
}

/** A builder for one mailing: the parts that do not change are encoded once. */
export function massLetterBuilder(opts: { from: string; subject: string }) {
  const from = parseFrom(opts.from);
  const subject = encodeWords(opts.subject);
  return (l: MassLetter): { envelope: { from: string; to: string }; raw: string } => {
    const boundary = `--_mass_${l.messageId.replace(/[^a-zA-Z0-9]/g, '')}`;
    const head = [
      `From: ${from.header}`,
      `To: ${l.to}`,
      `Subject: ${l.subject === undefined ? subject : encodeWords(l.subject)}`,
      `Date: ${new Date().toUTCString().replace('GMT', '+0000')}`,
      `Message-ID: ${l.messageId}`,
      'MIME-Version: 1.0',
      ...Object.entries(l.headers).map(([k, v]) => `${k}: ${v}`),
      `Content-Type: multipart/alternative; boundary="${boundary}"`,
    ];
    const part = (type: string, body: string) =>
      [`--${boundary}`, `Content-Type: ${type}; charset=utf-8`, 'Content-Transfer-Encoding: base64', '', wrap76(Buffer.from(body).toString('base64'))].join(
        CRLF,
      );
    const raw = [head.join(CRLF), '', part('text/plain', l.text), part('text/html', l.html), `--${boundary}--`, ''].join(CRLF);
    return { envelope: { from: from.address, to: l.to }, raw };
  };
}
