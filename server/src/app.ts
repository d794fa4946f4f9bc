import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import fastifySwagger from '@fastify/swagger';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { openApiTransform, responseCheckFor, responseSerializerCompiler, type ZodWireTypeProvider } from './platform/responses.ts';
import { sandboxCredentials, type Config } from './platform/config.ts';
import type { Database, Db } from './platform/db.ts';
import { registerErrorHandler } from './platform/errors.ts';
import { inputGuardPlugin } from './platform/input-guard.ts';
import { securityHeadersPlugin } from './platform/security-headers.ts';
import { parseLargeJsonOffThread } from './platform/json-body.ts';
import { installRussianErrors } from '@edu/domain/common/zod-ru';
import { authPlugin } from './platform/auth.ts';
import type { Mailer } from './platform/mail.ts';
import { FileStore, S3Storage } from './platform/files.ts';
import { JobRunner } from './platform/jobs.ts';
import { YookassaClient } from './platform/payments/yookassa-client.ts';
import { yookassaSandbox } from './platform/payments/yookassa-sandbox.ts';
import { overrideMethod } from './platform/method-override.ts';
import { paymentOperatorRoutes, paymentRoutes } from './features/payments/routes.ts';
import { registerPaymentJobs } from './features/payments/jobs.ts';
import { registerPublicationJobs } from './features/publications/jobs.ts';
import { registerFileJobs } from './features/files/file-retention.ts';
import { registerMaintenanceJobs } from './platform/db-maintenance.ts';
import { uploadsPlugin } from './platform/uploads.ts';
import { registerEventJobs } from './features/events/event-delivery.ts';
import { eventRoutes } from './features/events/routes.ts';
import { registerMailingJobs } from './features/mailing/mailing-job.ts';
import { mailingOperatorRoutes, mailingRoutes } from './features/mailing/routes.ts';
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
import { reviewManagerRoutes, reviewRoutes } from './features/reviews/routes.ts';
import { releaseManagerRoutes, releaseReadRoutes } from './features/releases/routes.ts';
import { priceManagerRoutes, priceReadRoutes } from './features/publication-prices/routes.ts';
import { rubricManagerRoutes } from './features/publication-categories/routes.ts';
import { documentRoutes, fileLinkRoutes } from './features/documents/routes.ts';
import { contractManagerRoutes, contractRoutes } from './features/contracts/routes.ts';
import { Cms } from './platform/cms/joomla-client.ts';
import { joomlaRoutes, serviceAdminRoutes, serviceImageRoutes } from './features/services/admin-routes.ts';
import { registerServiceJobs } from './features/services/service-publishing.ts';
import { entryAdminRoutes } from './features/entries/admin-routes.ts';
import { servicePackageAdminRoutes } from './features/service-packages/admin-routes.ts';
import { accessPlugin, defaultAccess } from './platform/access.ts';
import { statisticsRoutes } from './features/statistics/routes.ts';
import { siteLinkManagerRoutes, siteLinkRoutes } from './features/settings/routes.ts';
import { logRoutes } from './features/logs/routes.ts';
import { dictionaryManagerRoutes, leadingManagerRoutes, leadingReadRoutes } from './features/dictionaries/manager-routes.ts';
import { loginAsLeaveRoutes, managerUserRoutes } from './features/users/manager-routes.ts';
import { userImportRoutes } from './features/user-import/routes.ts';
import { bankStatementRoutes } from './features/bank-statements/routes.ts';
import { OfficeConverterPool } from './platform/converters/office-converter.ts';
import { HtmlPdfConverter } from './platform/converters/html-pdf.ts';
import { macroRoutes } from './features/macros/routes.ts';
import { templateRoutes } from './features/templates/routes.ts';
import { fileRoutes } from './features/files/routes.ts';
import { printOperatorRoutes, printRoutes, verifyRoutes } from './features/print/routes.ts';
import { registerPrintJobs } from './features/print/certificate-batch.ts';
import { PrintGate } from './features/print/print-gate.ts';
import { hasPaidEntry } from './features/print/print-repository.ts';
import { AccountSlots } from './platform/account-slots.ts';
import { EXPORTS_PER_ACCOUNT } from './platform/xlsx-reply.ts';
import { publicationOperatorRoutes, publicationRoutes } from './features/publications/routes.ts';
import { createUniquenessPool, type UniquenessPool } from './features/publications/uniqueness-pool.ts';
import { metricsPlugin } from './features/monitoring/metrics.ts';
import { monitoringRoutes } from './features/monitoring/routes.ts';
import { personalDataOperatorRoutes, personalDataRoutes } from './features/personal-data/routes.ts';
import { registerPersonalDataJobs } from './features/personal-data/personal-data-export.ts';
import { Telegram } from './platform/telegram/telegram.ts';
import { registerTelegramJobs } from './features/telegram/telegram-jobs.ts';
import { telegramRoutes } from './features/telegram/routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Db;
    database: Database;
    mailer: Mailer;
    files: FileStore;
    payments: YookassaClient;
    jobs: JobRunner;
    converters: { office: OfficeConverterPool; html: HtmlPdfConverter };
    /** Renders in flight on this instance: one per document, a few per account (decision 021). */
    printGate: PrintGate;
    /** .xlsx exports streaming on this instance: one per account (platform/xlsx-reply.ts). */
    exportSlots: AccountSlots;
    cms: Cms;
    /** The centre's Telegram bot (platform/telegram), off without TELEGRAM_BOT_TOKEN. */
    telegram: Telegram;
    /** The uniqueness engine's worker threads. */
    uniqueness: UniquenessPool;
  }
}

export interface AppDeps {
  config: Config;
  database: Database;
  mailer: Mailer | ((app: FastifyInstance) => Mailer);
  logger?: boolean | object;
  /** A ready logger (tests read what the app logs). */
  loggerInstance?: FastifyBaseLogger;
}

/** Builds the whole app: platform plugins first, then the features with their URL prefixes. */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  installRussianErrors();
  const app = Fastify({
    ...(deps.loggerInstance ? { loggerInstance: deps.loggerInstance } : { logger: deps.logger ?? false }),
    trustProxy: deps.config.trustProxy,
    bodyLimit: 12 * 1024 * 1024,
    // POST …?_method=PUT is a PUT (multipart updates, spec 01 §7).
    rewriteUrl: (req) => overrideMethod(req),
    // Requests are recorded in the request log (/manager/api-requests); the console keeps what matters.
    logController: new LogController({ disableRequestLogging: true }),
    // Router-level failures (a path parameter past 100 characters, a malformed url) answer in Russian too.
    frameworkErrors: (error, _request, reply) => {
      const long = error.statusCode === 414;
      void (reply as FastifyReply).code(long ? 414 : 400).send({ message: long ? 'Слишком длинный адрес запроса' : 'Некорректный запрос' });
    },
  }).withTypeProvider<ZodWireTypeProvider>();

  app.setValidatorCompiler(validatorCompiler);
  // Answers are checked against their declared schemas: tests fail, development logs (platform/responses.ts).
  app.setSerializerCompiler(responseSerializerCompiler(responseCheckFor(deps.config.env), (error) => app.log.warn({ err: error }, error.message)));
  // The JSON-API media type of POST /register is JSON.
  app.addContentTypeParser('application/vnd.api+json', { parseAs: 'string' }, app.getDefaultJsonParser('error', 'error'));
  // A JSON body of 64 KB or more (a long publication text) is decoded and parsed in a worker thread.
  parseLargeJsonOffThread(app);

  app.decorate('config', deps.config);
  app.decorate('database', deps.database);
  app.decorate('db', deps.database.db);
  app.decorate('mailer', typeof deps.mailer === 'function' ? deps.mailer(app) : deps.mailer);
  app.decorate('files', new FileStore(deps.config.s3 ? new S3Storage(deps.config.s3) : path.join(deps.config.dataDir, 'files')));
  // The sandbox is for development and tests only: never mounted in production, whatever the flags.
  const sandbox = deps.config.yookassa.sandbox && deps.config.yookassa.enabled && deps.config.env !== 'production';
  if (sandbox && !deps.config.yookassa.secretKey) Object.assign(deps.config.yookassa, sandboxCredentials(deps.config.dataDir));
  app.decorate('payments', new YookassaClient({ ...deps.config.yookassa, returnBase: () => app.config.appUrl }));
  const uniqueness = createUniquenessPool({ size: deps.config.uniqueness.workers, maxQueue: deps.config.uniqueness.queue, nice: deps.config.uniqueness.nice });
  app.decorate('uniqueness', uniqueness);
  const jobs = new JobRunner(app);
  registerPaymentJobs(jobs);
  registerPublicationJobs(jobs, deps.config.uniqueness);
  registerServiceJobs(jobs);
  app.decorate('cms', new Cms(deps.config.cms));
  registerEventJobs(jobs);
  registerMailingJobs(jobs);
  app.addHook('onClose', async () => app.mailer.close?.());
  registerPrintJobs(jobs);
  registerFileJobs(jobs);
  registerMaintenanceJobs(jobs);
  registerPersonalDataJobs(jobs);
  app.decorate('telegram', new Telegram(deps.config.telegram));
  app.addHook('onClose', async () => app.telegram.close());
  registerTelegramJobs(jobs);
  app.decorate('jobs', jobs);
  app.addHook('onClose', async () => {
    await jobs.stop();
    await uniqueness.close();
  });
  const converters = {
    office: new OfficeConverterPool({ size: deps.config.officeConverters, queueLimit: deps.config.print.queueLimit, log: app.log }),
    html: new HtmlPdfConverter({ executablePath: deps.config.chromiumPath, queueLimit: deps.config.print.queueLimit }),
  };
  app.decorate('converters', converters);
  app.decorate('printGate', new PrintGate(deps.config.print, (account) => hasPaidEntry(deps.database.db, account)));
  app.decorate('exportSlots', new AccountSlots(EXPORTS_PER_ACCOUNT));
  app.addHook('onClose', async () => {
    await Promise.all([converters.office.close(), converters.html.close()]);
  });

  registerErrorHandler(app);
  await app.register(fastifySwagger, {
    // OpenAPI 3.1: JSON Schema 2020-12, so a nullable field is a type array and a nullable enum
    // lists null (decision 034).
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Кабинет учебного центра: API',
        version: '1.0.0',
        summary: 'API личного кабинета учебного центра и его рабочего места оператора',
        description:
          'Сессия: POST /login отдаёт access_token; он передаётся в заголовке Authorization: Bearer <token>. ' +
          'Ошибки: {message}, отказы 422 — {message, errors: {поле: [тексты]}}.',
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      servers: [{ url: '/', description: 'Этот сервер' }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'access_token из ответа POST /login или POST /register' },
          metricsToken: { type: 'http', scheme: 'bearer', description: 'Значение переменной окружения METRICS_TOKEN (только для GET /metrics)' },
        },
      },
    },
    transform: openApiTransform,
  });
  // Parts are streamed to temporary files by platform/uploads.ts (readCheckedUploads), never buffered.
  await app.register(fastifyMultipart, { throwFileSizeLimit: false, limits: { fileSize: 10 * 1024 * 1024 + 1, files: 10, fields: 50 } });
  await app.register(uploadsPlugin);
  await app.register(securityHeadersPlugin);
  await app.register(inputGuardPlugin);
  await app.register(authPlugin);
  await app.register(accessPlugin);
  if (deps.config.requestLog) await app.register(requestLogPlugin);
  // Request counts and latencies by route, when METRICS_TOKEN is set (GET /metrics).
  await app.register(metricsPlugin);

  await app.register(authRoutes);
  await app.register(userRoutes, { prefix: '/api' });
  await app.register(dictionaryRoutes, { prefix: '/api/dictionaries' });
  await app.register(serviceRoutes, { prefix: '/api/service' });
  await app.register(serviceImageRoutes, { prefix: '/api/service-image' });
  await app.register(entryRoutes, { prefix: '/api' });
  await app.register(notificationRoutes, { prefix: '/api/notification' });
  await app.register(servicePackageRoutes, { prefix: '/api/service-package' });
  await app.register(reviewRoutes, { prefix: '/api/review' });
  await app.register(paymentRoutes, { prefix: '/api' });
  await app.register(mailingRoutes, { prefix: '/api/mail' });
  await app.register(documentRoutes, { prefix: '/api' });
  await app.register(fileLinkRoutes, { prefix: '/api' });
  await app.register(contractRoutes, { prefix: '/api' });
  await app.register(loginAsLeaveRoutes, { prefix: '/api' });
  await app.register(leadingReadRoutes, { prefix: '/api' });
  await app.register(releaseReadRoutes, { prefix: '/api' });
  await app.register(priceReadRoutes, { prefix: '/api' });
  await app.register(publicationRoutes, { prefix: '/api/publication' });
  await app.register(siteLinkRoutes, { prefix: '/api' });
  await app.register(personalDataRoutes, { prefix: '/api' });
  await app.register(telegramRoutes, { prefix: '/api/telegram' });
  // The manager area (spec 02): every route registered here is operators' only (401 / 403) unless it
  // declares otherwise, see platform/access.ts.
  await app.register(async (manager) => {
    defaultAccess(manager, 'operator');
    await manager.register(statisticsRoutes, { prefix: '/api' });
    await manager.register(siteLinkManagerRoutes, { prefix: '/api' });
    await manager.register(paymentOperatorRoutes, { prefix: '/api' });
    await manager.register(managerUserRoutes, { prefix: '/api' });
    await manager.register(userImportRoutes, { prefix: '/api' });
    await manager.register(bankStatementRoutes, { prefix: '/api' });
    await manager.register(personalDataOperatorRoutes, { prefix: '/api' });
    await manager.register(logRoutes, { prefix: '/api' });
    await manager.register(dictionaryManagerRoutes, { prefix: '/api/dictionaries' });
    await manager.register(leadingManagerRoutes, { prefix: '/api' });
    await manager.register(contractManagerRoutes, { prefix: '/api' });
    await manager.register(serviceAdminRoutes, { prefix: '/api/service' });
    await manager.register(joomlaRoutes, { prefix: '/api/joomla' });
    await manager.register(entryAdminRoutes, { prefix: '/api' });
    await manager.register(servicePackageAdminRoutes, { prefix: '/api/service-package' });
    await manager.register(macroRoutes, { prefix: '/api' });
    await manager.register(templateRoutes, { prefix: '/api/template' });
    await manager.register(eventRoutes, { prefix: '/api/dictionaries/dict_events' });
    await manager.register(mailingOperatorRoutes, { prefix: '/api/mail' });
    await manager.register(printOperatorRoutes, { prefix: '/api' });
    await manager.register(releaseManagerRoutes, { prefix: '/api' });
    await manager.register(priceManagerRoutes, { prefix: '/api' });
    await manager.register(rubricManagerRoutes, { prefix: '/api/dictionaries' });
    await manager.register(reviewManagerRoutes, { prefix: '/api' });
    await manager.register(publicationOperatorRoutes, { prefix: '/api/publication' });
  });
  await app.register(fileRoutes, { prefix: '/api/file' });
  await app.register(printRoutes, { prefix: '/api' });
  await app.register(verifyRoutes, { prefix: '/api' });
  if (sandbox) {
    // No shop credentials: the built-in YooKassa emulator answers the same API (test mode).
    await app.register(yookassaSandbox, {
      prefix: '/sandbox/yookassa',
      db: deps.database.db,
      shopId: deps.config.yookassa.shopId,
      secretKey: deps.config.yookassa.secretKey,
      webhookUrl: () => `${app.config.appUrl}/api/yookassa/webhook`,
      publicUrl: () => `${app.config.appUrl}/sandbox/yookassa`,
      returnBase: () => app.config.appUrl,
      log: app.log,
    });
  }
  app.get('/api/health', { config: { access: 'public' }, schema: { hide: true } }, async () => ({ ok: true }));
  await app.register(monitoringRoutes);
  app.get('/api/docs', { config: { access: 'public' }, schema: { hide: true } }, async () => app.swagger());

  await app.register(webPlugin, { root: deps.config.webDist });
  return app;
}
