import fp from 'fastify-plugin';
import fastifyHelmet from '@fastify/helmet';

/** Paths whose answers are private data or tokens: never kept by a browser or proxy cache. */
const PRIVATE = /^\/(api\/|login$|register$|logout$|password-forgot$|password-reset$|sandbox\/)/;

/**
 * Security headers on every answer: a CSP that allows only the app's own scripts, styles, images
 * and calls (Mantine sets inline styles, hence 'unsafe-inline' for styles only), no framing, nosniff
 * and no Referer leaving the site. API answers are `Cache-Control: no-store` unless a route says
 * otherwise (avatars).
 */
export const securityHeadersPlugin = fp(async (app) => {
  await app.register(fastifyHelmet, {
    global: true,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    referrerPolicy: { policy: 'same-origin' },
    // Local and test installs run on plain http; the reverse proxy in front of production adds HSTS.
    strictTransportSecurity: false,
  });
  app.addHook('onSend', async (request, reply, payload) => {
    if (!reply.hasHeader('cache-control') && PRIVATE.test(request.url)) reply.header('cache-control', 'no-store');
    return payload;
  });
});
