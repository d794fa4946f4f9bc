import fs from 'node:fs/promises';
import type { FastifyRequest } from 'fastify';
import { fileAnswer, multipartForm, type RoutesPlugin } from '../../platform/responses.ts';
import { z } from 'zod';
import { TemplateType } from '@edu/domain/common/codes';
import { FileMessages } from '@edu/domain/documents/files';
import { pageMeta } from '@edu/domain/common/pagination';
import {
  DEFAULTABLE_TYPES,
  missingTemplatesAnswer,
  templateAnswer,
  templateDeletedAnswer,
  templateEditor,
  templateFields,
  templateListQuery,
  TemplateMessages,
  templateSavedAnswer,
  templatesAnswer,
  type MissingTemplates,
} from '@edu/domain/templates/template';
import { fieldError, notFound, validationError } from '../../platform/errors.ts';
import { DOCX_MIME } from '../../platform/files.ts';
import { readCheckedUploads, type CheckedUpload } from '../../platform/uploads.ts';
import { malformedMacros, MACRO_PATTERN, unknownMacros } from '../macros/macro-catalogue.ts';
import { renderMacros } from '../macros/render-macros.ts';
import { DocxTemplateError, inspectDocx } from './docx.ts';
import { hasMetaRefresh } from './html-template.ts';
import { readRequisites, REQUISITE_FIELDS } from '../macros/requisites.ts';
import {
  deleteTemplate,
  findTemplate,
  insertTemplate,
  listTemplates,
  lockTemplate,
  missingTemplates,
  setServiceTypeDefault,
  templateUsage,
  toTemplate,
  updateTemplate,
} from './templates-repository.ts';
import { fieldErrorsFromZod } from '@edu/domain/common/validation';
import { userFileHeaders } from '../../platform/security-headers.ts';

const idParams = z.object({ id: z.coerce.number().int().positive() });

/** Create and update: multipart with the .docx, or JSON without it. */
const templateForm = multipartForm(templateFields, { file: { description: 'Шаблон .docx (для типов, что печатаются из файла)' } }, { json: true });

interface TemplateForm {
  fields: Record<string, string>;
  /** The checked .docx (a zip by its first bytes; inspectDocx checks the rest), received into a temporary file. */
  file: CheckedUpload | null;
}

/** Reads a multipart form (fields and at most one file named "file"); a JSON body is accepted too. */
async function readForm(request: FastifyRequest): Promise<TemplateForm> {
  if (!request.isMultipart()) {
    const body = (request.body ?? {}) as Record<string, unknown>;
    const fields: Record<string, string> = {};
    for (const [k, v] of Object.entries(body)) if (v !== null && v !== undefined) fields[k] = String(v);
    return { fields, file: null };
  }
  const form = await readCheckedUploads(request, {
    allowedFields: (f) => f === 'file',
    allowed: [DOCX_MIME, 'application/zip'],
    typeMessage: FileMessages.docxType,
  });
  return { fields: form.fields, file: form.files[0] ?? null };
}

function macrosInText(text: string | null | undefined): string[] {
  return [...new Set([...(text ?? '').matchAll(MACRO_PATTERN)].filter((m) => m[1] === '$').map((m) => m[2]))];
}

/** Operators' templates: list, one, create and update (multipart), delete, default per service type, the .docx file. */
export const templateRoutes: RoutesPlugin = async (app) => {
  /** GET /api/template?dict_type_id=&exceptType=&title=&page=&per_page= */
  app.get(
    '/',
    { schema: { tags: ['templates'], summary: 'Список шаблонов с фильтрами', querystring: templateListQuery, response: { 200: templatesAnswer } } },
    async (request) => {
      const { rows: list, total } = await listTemplates(app.db, request.query);
      return { data: list.map((r) => toTemplate(r, macrosInText(r.content))), meta: pageMeta(total, request.query) };
    },
  );

  /**
   * GET /api/template/missing: services that cannot print a certificate or a contract for want of a
   * template, templates the install has none of, and empty requisites (shown on /manager/templates).
   */
  app.get(
    '/missing',
    { schema: { tags: ['templates'], summary: 'Чего не хватает для печати: шаблоны и реквизиты', response: { 200: missingTemplatesAnswer } } },
    async (): Promise<{ data: MissingTemplates }> => {
      const [{ general, services }, requisites] = await Promise.all([missingTemplates(app.db), readRequisites(app.db)]);
      const lacking: MissingTemplates['general'] = [];
      if (general.consent === null) lacking.push({ dict_type_id: TemplateType.consent, title: 'Согласие на обработку персональных данных' });
      if (general.contract === null && (general.contract_types ?? []).length > 0)
        lacking.push({ dict_type_id: TemplateType.contract, title: `Договор (нужен для типов: ${(general.contract_types ?? []).join(', ')})` });
      if (general.reglist === null) lacking.push({ dict_type_id: TemplateType.regList, title: 'Регистрационный лист' });
      return {
        data: {
          general: lacking,
          services: services.map((r) => ({
            id: r.id,
            title: r.title,
            type: r.type,
            missing: [...(r.no_certificate ? [TemplateType.certificate] : []), ...(r.no_contract ? [TemplateType.contract] : [])],
          })),
          services_total: Number(services[0]?.total ?? 0),
          requisites: REQUISITE_FIELDS.filter(([key]) => !requisites[key]).map(([, label]) => label),
        },
      };
    },
  );

  /** GET /api/template/{id}: with the macros it uses (read from the .docx for file templates). */
  app.get(
    '/:id',
    { schema: { tags: ['templates'], summary: 'Шаблон с используемыми макросами', params: idParams, response: { 200: templateAnswer } } },
    async (request) => {
      const row = await findTemplate(app.db, request.params.id);
      if (!row) throw notFound();
      let macros = macrosInText(row.content);
      if (row.storage_key) {
        const data = await app.files.read(row.storage_key).catch(() => null);
        try {
          macros = data ? inspectDocx(data) : [];
        } catch {
          macros = [];
        }
      }
      return { data: toTemplate(row, macros) };
    },
  );

  /** GET /api/template/{id}/file: the uploaded .docx. */
  app.get(
    '/:id/file',
    { schema: { tags: ['templates'], summary: 'Файл шаблона (.docx)', params: idParams, response: { 200: fileAnswer('Шаблон, .docx', DOCX_MIME) } } },
    async (request, reply) => {
      const row = await findTemplate(app.db, request.params.id);
      if (!row?.storage_key) throw notFound();
      const data = await app.files.read(row.storage_key).catch(() => null);
      if (!data) throw notFound();
      return userFileHeaders(reply)
        .type(DOCX_MIME)
        .header('content-disposition', `attachment; filename="template.docx"; filename*=UTF-8''${encodeURIComponent(row.file_name ?? 'template.docx')}`)
        .send(data);
    },
  );

  async function save(request: FastifyRequest, id: number | null) {
    const form = await readForm(request);
    const existing = id ? await findTemplate(app.db, id) : undefined;
    if (id && !existing) throw notFound();
    const parsed = templateFields.safeParse({ ...form.fields, dict_type_id: form.fields.dict_type_id ?? existing?.dict_type_id });
    if (!parsed.success) throw validationError(fieldErrorsFromZod(parsed.error));
    const v = parsed.data;
    const editor = templateEditor(v.dict_type_id);
    let fileId = existing?.file_id ?? null;
    let content = v.content ?? null;
    if (editor === 'file') {
      content = null;
      if (form.file) {
        // By content: a .docx is a zip with word/document.xml (file-type may only see the zip; inspectDocx checks the rest).
        try {
          inspectDocx(await fs.readFile(form.file.path));
        } catch (err) {
          if (err instanceof DocxTemplateError) throw validationError({ file: err.problems }, TemplateMessages.badTemplate);
          throw err;
        }
        const saved = await app.files.saveFile(app.db, { ...form.file, userId: null, name: form.file.name || 'template.docx', mime: DOCX_MIME, ext: 'docx' });
        fileId = saved.id;
      }
      if (!fileId) throw fieldError('file', TemplateMessages.fileRequired);
    } else {
      if (!content || !content.replace(/<[^>]*>/g, '').trim()) throw fieldError('content', 'Обязательное поле');
      const malformed = malformedMacros(content);
      if (malformed.length) throw fieldError('content', TemplateMessages.malformedMacros(malformed), TemplateMessages.badTemplate);
      const unknown = unknownMacros(content);
      if (unknown.length) throw fieldError('content', TemplateMessages.unknownMacros(unknown), TemplateMessages.badTemplate);
      // As written, and with every macro empty: a macro's value (escaped, but possibly empty) must
      // not join two halves of a tag into a refresh (the print cuts those out too, decision 021).
      if (hasMetaRefresh(content) || hasMetaRefresh(renderMacros(content, {}, { escape: 'html', missing: 'empty' })))
        throw fieldError('content', TemplateMessages.metaRefresh, TemplateMessages.badTemplate);
      fileId = null;
    }
    const values = { title: v.title, dict_type_id: v.dict_type_id, content, file_id: fileId, event_id: v.event_id ?? null, updated_at: new Date() };
    const row = await app.db.transaction(async (tx) => {
      if (!existing) return insertTemplate(tx, values);
      await updateTemplate(tx, existing.id, values);
      return existing.id;
    });
    const saved = await findTemplate(app.db, row);
    return { data: toTemplate(saved!, macrosInText(saved!.content)), message: TemplateMessages.saved };
  }

  /** POST /api/template (multipart: title, dict_type_id, content, event_id, file). */
  app.post(
    '/',
    { schema: { tags: ['templates'], summary: 'Создать шаблон', form: templateForm, response: { 201: templateSavedAnswer } } },
    async (request, reply) => reply.status(201).send(await save(request, null)),
  );

  /** POST /api/template/{id} (multipart with _method=PUT) and PUT /api/template/{id}. */
  app.post(
    '/:id',
    {
      schema: {
        tags: ['templates'],
        summary: 'Изменить шаблон (форма с _method=PUT)',
        params: idParams,
        form: templateForm,
        response: { 200: templateSavedAnswer },
      },
    },
    async (request) => save(request, request.params.id),
  );
  app.put(
    '/:id',
    { schema: { tags: ['templates'], summary: 'Изменить шаблон', params: idParams, form: templateForm, response: { 200: templateSavedAnswer } } },
    async (request) => save(request, request.params.id),
  );

  /**
   * DELETE /api/template/{id}: soft delete, refused (422, naming them) while something prints with it:
   * a service type's default, a service's own choice, an event's notification, or the install's only
   * consent or contract (issue 19: deleting a default silently broke printing).
   */
  app.delete(
    '/:id',
    { schema: { tags: ['templates'], summary: 'Удалить шаблон', params: idParams, response: { 200: templateDeletedAnswer } } },
    async (request) => {
      const row = await findTemplate(app.db, request.params.id);
      if (!row) throw notFound();
      // The row lock makes a concurrent set-as-default of this template wait, so no default points at a deleted template.
      await app.db.transaction(async (tx) => {
        await lockTemplate(tx, row.id);
        const usage = await templateUsage(tx, row);
        const lines = [
          ...(usage.serviceTypes.length ? [TemplateMessages.usedByTypes(usage.serviceTypes)] : []),
          ...(usage.services.length ? [TemplateMessages.usedByServices(usage.services, usage.servicesTotal)] : []),
          ...(usage.events.length ? [TemplateMessages.usedByEvents(usage.events)] : []),
          ...(usage.onlyOfItsKind ? [row.dict_type_id === TemplateType.consent ? TemplateMessages.onlyConsent : TemplateMessages.onlyContract] : []),
        ];
        if (lines.length) throw validationError({ id: lines }, TemplateMessages.inUse(lines));
        await deleteTemplate(tx, row.id);
      });
      return { message: TemplateMessages.deleted };
    },
  );

  /**
   * POST /api/template/{id}/set-as-default/{serviceTypeId} (the spec's `{subtypeId}` segment): the
   * template becomes the default certificate (or page) of that service type. Defaults are per service
   * type everywhere: this call, the screen, the Service's `type` object, the new-service preselection
   * and printing (decision 024); a type that does not exist is 404.
   */
  app.post(
    '/:id/set-as-default/:serviceTypeId',
    {
      schema: {
        tags: ['templates'],
        summary: 'Назначить шаблон по умолчанию для типа услуги',
        params: z.object({ id: z.coerce.number().int().positive(), serviceTypeId: z.coerce.number().int().positive() }),
        response: { 200: templateSavedAnswer },
      },
    },
    async (request) => {
      const row = await findTemplate(app.db, request.params.id);
      if (!row) throw notFound();
      if (!DEFAULTABLE_TYPES.includes(row.dict_type_id)) throw fieldError('dict_type_id', TemplateMessages.notDefaultable, TemplateMessages.notDefaultable);
      const updated = await app.db.transaction(async (tx) => {
        // Waits for a delete of the template in flight; a template deleted meanwhile is not made a default.
        if (!(await lockTemplate(tx, row.id))?.live) return false;
        return setServiceTypeDefault(tx, request.params.serviceTypeId, row);
      });
      if (!updated) throw notFound();
      const saved = await findTemplate(app.db, row.id);
      return { data: toTemplate(saved!, macrosInText(saved!.content)), message: TemplateMessages.setAsDefault };
    },
  );
};
