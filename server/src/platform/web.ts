import fs from 'node:fs';
import path from 'node:path';
import fp from 'fastify-plugin';
import fastifyStatic from '@fastify/static';
import { Messages } from '@edu/domain/common/messages';
import { defaultAccess } from './access.ts';

/** Paths that belong to the API or the payment sandbox: never the app's page, always a JSON answer. */
const API_PATH = /^\/(api|sandbox)(\/|$)/;

/**
 * Serves the built single-page app from web/dist on the same port as the API. Unknown GET paths
 * outside /api and /sandbox answer index.html so client routes (/login, /user/...) load on refresh;
 * an unknown path under /api or /sandbox is a JSON 404 (the mounted sandbox answers its own, in
 * YooKassa's error shape).
 */
export const webPlugin = fp<{ root: string }>(async (app, opts) => {
  const index = path.join(opts.root, 'index.html');
  const hasWeb = fs.existsSync(index);
  if (hasWeb) {
    // The app's files are public (a route per file).
    await app.register(async (files) => {
      defaultAccess(files, 'public');
      await files.register(fastifyStatic, { root: opts.root, wildcard: false, index: false, maxAge: '1h', immutable: false });
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0];
    if (request.method === 'GET' && hasWeb && !API_PATH.test(url)) {
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(fs.createReadStream(index));
    }
    return reply.status(404).send({ message: Messages.notFound });
  });
});
