import Fastify, { LogController, type FastifyInstance } from 'fastify';
import fastifySwagger from '@fastify/swagger';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from './platform/config.ts';
import type { Database, Db } from './platform/db.ts';
import { registerErrorHandler } from './platform/errors.ts';
import { authPlugin } from './platform/auth.ts';
import type { Mailer } from './platform/mail.ts';
import { FileStore } from './platform/files.ts';
import { JobRunner } from './platform/jobs.ts';
import { YookassaClient } from './platform/payments/yookassa-client.ts';
import { yookassaSandbox } from './platform/payments/yookassa-sandbox.ts';
import { paymentRoutes } from './features/payments/routes.ts';
import { registerPaymentJobs } from './features/payments/jobs.ts';
import fastifyMultipart from '@fastify/multipart';
import path from 'node:path';
import { requestLogPlugin } from './platform/request-log.ts';
import { webPlugin } from './platform/web.ts';
import { authRoutes } from './features/auth/routes.ts';
import { userRoutes } from './features/users/routes.ts';
import { dictionaryRoutes } from './features/dictionaries/routes.ts';
import { serviceRoutes } from './features/services/routes.ts';
import { entryRoutes } from './features/entries/routes.ts';
import { notificationRoutes } from './features/notifications/routes.ts';
import { servicePackageRoutes } from './features/service-packages/routes.ts';
import { reviewRoutes } from './features/reviews/routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Db;
    database: Database;
    mailer: Mailer;
    files: FileStore;
    payments: YookassaClient;
    jobs: JobRunner;
  }
}

export interface AppDeps {
  config: Config;
  database: Database;
  mailer: Mailer | ((app: FastifyInstance) => Mailer);
  logger?: boolean | object;
}

/** Builds the whole app: platform plugins first, then the features with their URL prefixes. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const app = Fastify({
    logger: deps.logger ?? false,
    trustProxy: deps.config.trustProxy,
    bodyLimit: 12 * 1024 * 1024,
    // Requests are recorded in the request log (/manager/api-requests); the console keeps what matters.
    logController: new LogController({ disableRequestLogging: true }),
  }).withTypeProvider<ZodTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  // The JSON-API media type of POST /register is JSON.
  app.addContentTypeParser('application/vnd.api+json', { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));

  app.decorate('config', deps.config);
  app.decorate('database', deps.database);
  app.decorate('db', deps.database.db);
  app.decorate('mailer', typeof deps.mailer === 'function' ? deps.mailer(app) : deps.mailer);
  app.decorate('files', new FileStore(path.join(deps.config.dataDir, 'files')));
  app.decorate('payments', new YookassaClient(deps.config.yookassa));
  const jobs = new JobRunner(app);
  registerPaymentJobs(jobs);
  app.decorate('jobs', jobs);
  app.addHook('onClose', () => jobs.stop());

  registerErrorHandler(app);
  await app.register(fastifySwagger, {
    openapi: { info: { title: 'Кабинет учебного центра: API', version: '1.0.0' } },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifyMultipart, { limits: { fileSize: 10 * 1024 * 1024 + 1, files: 10, fields: 50 } });
  await app.register(authPlugin);
  if (deps.config.requestLog) await app.register(requestLogPlugin);

  await app.register(authRoutes);
  await app.register(userRoutes, { prefix: '/api' });
  await app.register(dictionaryRoutes, { prefix: '/api/dictionaries' });
  await app.register(serviceRoutes, { prefix: '/api/service' });
  await app.register(entryRoutes, { prefix: '/api' });
  await app.register(notificationRoutes, { prefix: '/api/notification' });
  await app.register(servicePackageRoutes, { prefix: '/api/service-package' });
  await app.register(reviewRoutes, { prefix: '/api/review' });
  await app.register(paymentRoutes, { prefix: '/api' });
  if (deps.config.yookassa.sandbox) {
    // No shop credentials: the built-in YooKassa emulator answers the same API (test mode).
    await app.register(yookassaSandbox, {
      prefix: '/sandbox/yookassa',
      db: deps.database.db,
      shopId: deps.config.yookassa.shopId,
      secretKey: deps.config.yookassa.secretKey,
      webhookUrl: () => `${app.config.appUrl}/api/yookassa/webhook`,
      publicUrl: () => `${app.config.appUrl}/sandbox/yookassa`,
      log: app.log,
    });
  }
  app.get('/api/health', { schema: { hide: true } }, async () => ({ ok: true }));
  app.get('/api/docs', { schema: { hide: true } }, async () => app.swagger());

  await app.register(webPlugin, { root: deps.config.webDist });
  return app;
}
