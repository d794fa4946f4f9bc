import type { FastifyReply } from 'fastify';
import fp from 'fastify-plugin';

/** Paths whose answers are private data or tokens: never kept by a browser or proxy cache. */
const PRIVATE = /^\/(api\/|login$|register$|logout$|password-forgot$|password-reset$|sandbox\/)/;

/** Answers a browser renders as a document, where scripts could run: they get the whole policy. */
const DOCUMENT = /^(text\/html|image\/svg\+xml|application\/xhtml\+xml)\b/i;

/**
 * The policy of the app's pages: only the app's own scripts, styles, images and calls (Mantine sets
 * inline styles, hence 'unsafe-inline' for styles only), no plugins, no framing.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join(';');

/**
 * The policy of every user file (documents, contract scans, publication files, avatars, templates,
 * signed and short-lived links): a PDF or picture that is also HTML (a polyglot) opened by itself
 * loads nothing and runs nothing, in an opaque origin (issue 29).
 */
export const USER_FILE_POLICY = "default-src 'none'; sandbox";

/** The headers of a user file's bytes: the policy above, never sniffed into another type. */
export function userFileHeaders(reply: FastifyReply): FastifyReply {
  return reply.header('content-security-policy', USER_FILE_POLICY).header('x-content-type-options', 'nosniff');
}

/** Every answer: never sniffed into another type, no Referer leaving the site, not readable by other sites' pages. */
const EVERY_ANSWER: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
};

/** Documents (the app's pages, the sandbox's payment page): the policy and the isolation headers. */
const DOCUMENT_ANSWER: Record<string, string> = {
  'content-security-policy': CONTENT_SECURITY_POLICY,
  'cross-origin-opener-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
};

function setMissing(reply: FastifyReply, headers: Record<string, string>) {
  for (const name in headers) if (!reply.hasHeader(name)) reply.header(name, headers[name]);
}

/**
 * Security headers, as constants set once per answer (no per-request work). Pages and other
 * documents get the content security policy, framing and isolation headers; JSON and files only
 * what applies to them (a CSP means nothing to a JSON answer and cost 0.6 KB on each). A route's
 * own policy (a private file's, stricter) is kept. API answers are `Cache-Control: no-store`
 * unless a route says otherwise (avatars). HSTS is the reverse proxy's: local and test installs
 * run on plain http.
 */
export const securityHeadersPlugin = fp(async (app) => {
  // A callback hook, not an async one: no promise per answer.
  app.addHook('onSend', (request, reply, payload, done) => {
    setMissing(reply, EVERY_ANSWER);
    const type = reply.getHeader('content-type');
    if (typeof type === 'string' && DOCUMENT.test(type)) setMissing(reply, DOCUMENT_ANSWER);
    if (!reply.hasHeader('cache-control') && PRIVATE.test(request.url)) reply.header('cache-control', 'no-store');
    done(null, payload);
  });
});
