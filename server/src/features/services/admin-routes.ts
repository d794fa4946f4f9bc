import { z } from 'zod';
import sharp from 'sharp';
import type { FastifyInstance } from 'fastify';
import { fileAnswer, multipartForm, type RoutesPlugin } from '../../platform/responses.ts';
import { Messages } from '@edu/domain/common/messages';
import {
  joomlaLookupBody,
  joomlaOptionsAnswer,
  saveServiceBody,
  serviceDeletedAnswer,
  ServiceFormMessages,
  serviceFormOptionsAnswer,
  serviceSavedAnswer,
  type ServiceFormOptions,
} from '@edu/domain/services/service-form';
import { TemplateType } from '@edu/domain/common/codes';
import type { Service } from '@edu/domain/services/service';
import { serviceOverviewAnswer, serviceOverviewQuery } from '@edu/domain/services/service-overview';
import { currentUser } from '../../platform/auth.ts';
import { JoomlaError } from '../../platform/cms/joomla-client.ts';
import { AppError, fieldError, notFound } from '../../platform/errors.ts';
import { IMAGE_MIMES } from '../../platform/files.ts';
import { readCheckedUploads } from '../../platform/uploads.ts';
import { createService, deleteService, setServiceImage, updateService } from './service-admin.ts';
import { PUBLISH_SERVICE_JOB, requestPublication } from './service-publishing.ts';
import { getService, isServiceImage, listLeadings, listServiceFormTemplates, listServiceOverview, serviceExists } from './services-repository.ts';
import { userFileHeaders } from '../../platform/security-headers.ts';

const idParams = z.object({ id: z.coerce.number().int().positive() });
/** Images are stored at most this wide (sharp keeps the proportions). */
export const SERVICE_IMAGE_WIDTH = 1200;

/** Adds the operator's link to the article on the site. */
export function withSiteUrl(app: FastifyInstance, s: Service): Service {
  const client = app.cms.client('site');
  return { ...s, site_url: client && s.joomla_article_id ? client.articleUrl({ id: s.joomla_article_id, catid: s.joomla_catid }) : null };
}

async function serviceAnswer(app: FastifyInstance, id: number): Promise<Service> {
  const s = await getService(app.db, id, false);
  if (!s) throw notFound(Messages.serviceNotFound);
  return withSiteUrl(app, s);
}

/** Operator-only service calls (spec 02 §7 Service), registered in the operator scope (app.ts). */
export const serviceAdminRoutes: RoutesPlugin = async (app) => {
  const publish = () => ({ publish: app.cms.client('site') !== null });

  /** GET /api/service/form-options: the choices of the edit modal — templates by type and leading persons. */
  app.get(
    '/form-options',
    { schema: { tags: ['services'], summary: 'Варианты для формы услуги: шаблоны и ведущие', response: { 200: serviceFormOptionsAnswer } } },
    async () => {
      const templates = await listServiceFormTemplates(app.db);
      const leadings = await listLeadings(app.db);
      const of = (type: number) => templates.filter((t) => t.dict_type_id === type).map(({ id, title }) => ({ id, title }));
      const data: ServiceFormOptions = {
        templates: {
          certificate: of(TemplateType.certificate),
          program: of(TemplateType.program),
          regList: of(TemplateType.regList),
          page: of(TemplateType.page),
        },
        leadings,
        cms: app.cms.client('site') !== null,
      };
      return { data };
    },
  );

  /** GET /api/service/overview: «Все услуги», every service with its seats and sales (issue 22). */
  app.get(
    '/overview',
    {
      schema: { tags: ['services'], summary: 'Все услуги с местами и продажами', querystring: serviceOverviewQuery, response: { 200: serviceOverviewAnswer } },
    },
    async (request) => {
      const { page, per_page, sort, ...filters } = request.query;
      return listServiceOverview(app.database, filters, { page, per_page, sort });
    },
  );

  app.post(
    '/',
    { schema: { tags: ['services'], summary: 'Создать услугу', body: saveServiceBody, response: { 201: serviceSavedAnswer } } },
    async (request, reply) => {
      const id = await createService(app.db, currentUser(request), request.body, publish());
      return reply.status(201).send({ data: await serviceAnswer(app, id), message: Messages.saved });
    },
  );

  app.put(
    '/:id',
    { schema: { tags: ['services'], summary: 'Изменить услугу', params: idParams, body: saveServiceBody, response: { 200: serviceSavedAnswer } } },
    async (request) => {
      await updateService(app.db, currentUser(request), request.params.id, request.body, publish());
      return { data: await serviceAnswer(app, request.params.id), message: Messages.saved };
    },
  );

  app.delete(
    '/:id',
    { schema: { tags: ['services'], summary: 'Удалить услугу', params: idParams, response: { 200: serviceDeletedAnswer } } },
    async (request) => {
      await deleteService(app.db, currentUser(request), request.params.id, publish());
      return { message: Messages.deleted };
    },
  );

  /** POST /api/service/{id}/upload-image (multipart "file"): jpg or png by content, at most 10 MB, stored at most 1200 px wide. */
  const imageForm = multipartForm(z.object({}), { file: { description: 'Изображение jpg или png, до 10 МБ', required: true } });
  app.post(
    '/:id/upload-image',
    { schema: { tags: ['services'], summary: 'Загрузить изображение услуги', params: idParams, form: imageForm, response: { 200: serviceSavedAnswer } } },
    async (request) => {
      if (!(await serviceExists(app.db, request.params.id, { live: true }))) throw notFound(Messages.serviceNotFound);
      const form = await readCheckedUploads(request, { allowed: IMAGE_MIMES, typeMessage: ServiceFormMessages.imageType });
      const upload = form.files[0];
      if (!upload) throw fieldError('file', ServiceFormMessages.imageType);
      let resized: Buffer;
      try {
        resized = await sharp(upload.path).rotate().resize({ width: SERVICE_IMAGE_WIDTH, withoutEnlargement: true }).jpeg({ quality: 85 }).toBuffer();
      } catch {
        throw fieldError('file', ServiceFormMessages.imageType);
      }
      const me = currentUser(request);
      const file = await app.files.save(app.db, { userId: me.id, name: upload.name || 'service.jpg', mime: 'image/jpeg', buffer: resized, ext: 'jpg' });
      await setServiceImage(app.db, me, request.params.id, file.id, publish());
      return { data: await serviceAnswer(app, request.params.id), message: ServiceFormMessages.imageUploaded };
    },
  );

  /**
   * POST /api/service/save-to-joomla/{id}: sends the service to the site now. The publication is a
   * durable job: when the site fails, the job keeps retrying and the answer carries
   * 'Ошибка сохранения в Joomla! {message}...' for the operator, who may press again.
   */
  app.post(
    '/save-to-joomla/:id',
    {
      schema: {
        tags: ['services'],
        summary: 'Отправить услугу на сайт (Joomla)',
        params: idParams,
        // The site refused or failed: its message, and the service with its publishing state.
        response: {
          200: serviceSavedAnswer,
          502: serviceSavedAnswer.meta({ description: 'Сайт ответил ошибкой: сообщение и услуга с состоянием публикации' }),
        },
      },
    },
    async (request) => {
      if (!app.cms.client('site')) throw new AppError(422, ServiceFormMessages.cmsOff, { errors: {} });
      const id = request.params.id;
      if (!(await serviceExists(app.db, id, { live: false }))) throw notFound(Messages.serviceNotFound);
      await app.db.transaction((tx) => requestPublication(tx, id));
      const run = await app.jobs.runNow(PUBLISH_SERVICE_JOB, String(id));
      // The background runner may have taken the job a moment earlier (the save queued it): answer by its outcome.
      if (run.state === 'busy') await app.jobs.waitWhileBusy(PUBLISH_SERVICE_JOB, String(id));
      const service = await serviceAnswer(app, id);
      if (run.state === 'failed' || service.joomla_status === 'error') {
        const message = ServiceFormMessages.joomlaError(run.state === 'failed' ? run.error : (service.joomla_error ?? ''));
        throw new AppError(502, message, { data: service });
      }
      if (service.joomla_status === 'published') return { data: service, message: ServiceFormMessages.published };
      return { data: service, message: ServiceFormMessages.publishQueued };
    },
  );
};

/** POST /api/joomla/categories and /api/joomla/tags {joomla_system: site | journal}: the lists of the site, for the dictionaries (operator scope). */
export const joomlaRoutes: RoutesPlugin = async (app) => {
  const lookup = (kind: 'categories' | 'tags') => async (request: { body: z.infer<typeof joomlaLookupBody> }) => {
    const client = app.cms.client(request.body.joomla_system);
    if (!client) throw new AppError(422, ServiceFormMessages.cmsOff, { errors: {} });
    try {
      return { data: kind === 'categories' ? await client.categories() : await client.tags() };
    } catch (err) {
      if (err instanceof JoomlaError) throw new AppError(502, ServiceFormMessages.joomlaError(err.message));
      throw err;
    }
  };
  app.post(
    '/categories',
    {
      config: { refuses: [502] },
      schema: { tags: ['services'], summary: 'Категории сайта (Joomla)', body: joomlaLookupBody, response: { 200: joomlaOptionsAnswer } },
    },
    lookup('categories'),
  );
  app.post(
    '/tags',
    {
      config: { refuses: [502] },
      schema: { tags: ['services'], summary: 'Метки сайта (Joomla)', body: joomlaLookupBody, response: { 200: joomlaOptionsAnswer } },
    },
    lookup('tags'),
  );
};

/** GET /api/service-image/{key}: service images are public (the site shows them); only images of services are served. */
export const serviceImageRoutes: RoutesPlugin = async (app) => {
  app.get(
    '/:a/:b',
    {
      config: { access: 'public' },
      schema: {
        tags: ['services'],
        summary: 'Изображение услуги',
        params: z.object({ a: z.string().regex(/^[a-f0-9]{2}$/), b: z.string().regex(/^[a-f0-9]{32}\.jpg$/) }),
        response: { 200: fileAnswer('Изображение услуги', 'image/jpeg') },
      },
    },
    async (request, reply) => {
      const key = `${request.params.a}/${request.params.b}`;
      if (!(await isServiceImage(app.db, key))) throw notFound();
      const data = await app.files.read(key).catch(() => null);
      if (!data) throw notFound();
      return userFileHeaders(reply).type('image/jpeg').header('cache-control', 'public, max-age=86400').send(data);
    },
  );
};
