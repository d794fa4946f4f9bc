import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import { TemplateType } from '@edu/domain/common/codes';
import { rows, type Queryable } from '../../../platform/db.ts';
import { DOCX_MIME, type FileStore } from '../../../platform/files.ts';
import { certificates } from './sources.ts';
import { PREVIOUS_SHIPPED_VERSIONS } from './previous-versions.ts';

// The default templates every install gets, production included (decision 024): the consent, the
// contract, a certificate per service type, two programmes and the registration list. They are the
// files of this folder (.docx built from ./sources.ts, .html edited as they are).

const here = path.dirname(fileURLToPath(import.meta.url));

export interface ShippedTemplate {
  /** Stable name, recorded once the template was considered (app_settings 'shipped_templates'). */
  key: string;
  title: string;
  dict_type_id: number;
  /** A file of this folder. */
  file: string;
  /**
   * Whether the install needs it: only where it has nothing of its own that this would replace, so an
   * operator's template is never displaced (the consent and the contract print the newest of their type).
   */
  needed: (db: Queryable) => Promise<boolean>;
  /** The service type it becomes the default certificate of (where the type has none). */
  serviceTypeId?: number;
}

async function noLive(db: Queryable, dictTypeId: number, title?: string): Promise<boolean> {
  const found = await rows<{ id: number }>(
    db,
    sql`select id from templates where deleted_at is null and dict_type_id = ${dictTypeId} ${title ? sql`and title = ${title}` : sql``} limit 1`,
  );
  return found.length === 0;
}

async function typeLacksCertificate(db: Queryable, serviceTypeId: number): Promise<boolean> {
  const found = await rows<{ id: number }>(
    db,
    sql`select st.id from dict_service_types st
        where st.id = ${serviceTypeId}
          and not exists (select 1 from templates t where t.id = st.template_certificate_id and t.deleted_at is null and t.dict_type_id = ${TemplateType.certificate})`,
  );
  return found.length > 0;
}

export const SHIPPED_TEMPLATES: ShippedTemplate[] = [
  {
    key: 'consent',
    title: 'Согласие на обработку персональных данных',
    dict_type_id: TemplateType.consent,
    file: 'consent.docx',
    needed: (db) => noLive(db, TemplateType.consent),
  },
  {
    key: 'contract',
    title: 'Договор об оказании платных образовательных услуг',
    dict_type_id: TemplateType.contract,
    file: 'contract.docx',
    needed: (db) => noLive(db, TemplateType.contract),
  },
  ...certificates.map((c): ShippedTemplate => ({
    key: c.file,
    title: c.title,
    dict_type_id: TemplateType.certificate,
    file: `${c.file}.docx`,
    serviceTypeId: c.serviceTypeId,
    needed: (db) => typeLacksCertificate(db, c.serviceTypeId),
  })),
  {
    key: 'program-event',
    title: 'Программа мероприятия',
    dict_type_id: TemplateType.program,
    file: 'program-event.html',
    needed: (db) => noLive(db, TemplateType.program, 'Программа мероприятия'),
  },
  {
    key: 'program-course',
    title: 'Учебно-тематический план курса',
    dict_type_id: TemplateType.program,
    file: 'program-course.html',
    needed: (db) => noLive(db, TemplateType.program, 'Учебно-тематический план курса'),
  },
  // The registration list prints the newest one where a service has none of its own: only when there is none.
  {
    key: 'registration-list',
    title: 'Регистрационный лист участника',
    dict_type_id: TemplateType.regList,
    file: 'registration-list.html',
    needed: (db) => noLive(db, TemplateType.regList),
  },
];

const SETTINGS_KEY = 'shipped_templates';

/** Which shipped templates this install has considered: key -> the template made, or null when it was not needed. */
export async function shippedTemplatesRecord(db: Queryable): Promise<Record<string, number | null>> {
  const [row] = await rows<{ value: string }>(db, sql`select value from app_settings where key = ${SETTINGS_KEY}`);
  try {
    return row ? (JSON.parse(row.value) as Record<string, number | null>) : {};
  } catch {
    return {};
  }
}

/**
 * Adds each shipped template once per install: a template recorded as considered is never added
 * again, so an operator's edits stay and a template an operator deleted does not come back. A
 * certificate becomes its service type's default where the type has none. Runs under the startup
 * lock; each template in its own transaction (a failed one is tried again on the next start).
 */
export async function seedShippedTemplates(db: Queryable, files: FileStore, list: ShippedTemplate[] = SHIPPED_TEMPLATES): Promise<number> {
  let added = 0;
  for (const t of list) {
    if (t.key in (await shippedTemplatesRecord(db))) continue;
    await db.transaction(async (tx) => {
      let made: number | null = null;
      if (await t.needed(tx)) {
        const bytes = await fs.readFile(path.join(here, t.file));
        let fileId: number | null = null;
        let content: string | null = null;
        if (t.file.endsWith('.docx'))
          fileId = (await files.save(tx, { userId: null, name: `${t.title}.docx`, mime: DOCX_MIME, buffer: bytes, ext: 'docx' })).id;
        else content = bytes.toString('utf8').trim();
        const [row] = await rows<{ id: number }>(
          tx,
          sql`insert into templates (title, content, dict_type_id, file_id) values (${t.title}, ${content}, ${t.dict_type_id}, ${fileId}) returning id`,
        );
        made = row.id;
        if (t.serviceTypeId) await tx.execute(sql`update dict_service_types set template_certificate_id = ${made} where id = ${t.serviceTypeId}`);
        added++;
      }
      await tx.execute(
        sql`insert into app_settings (key, value, updated_at) values (${SETTINGS_KEY}, ${JSON.stringify({ [t.key]: made })}, now())
            on conflict (key) do update set value = (app_settings.value::jsonb || excluded.value::jsonb)::text, updated_at = now()`,
      );
    });
  }
  return added;
}

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/**
 * Brings the shipped templates an install made up to the current text, where the operator has left
 * them exactly as shipped (their bytes, or their trimmed HTML, are one of the earlier versions in
 * previous-versions.ts). A template an operator changed, replaced or deleted is not touched. The
 * template keeps its id (services and type defaults still point at it); a .docx gets a new file.
 * Runs at every start after seedShippedTemplates; returns how many were brought up to date.
 */
export async function upgradeShippedTemplates(
  db: Queryable,
  files: FileStore,
  list: ShippedTemplate[] = SHIPPED_TEMPLATES,
  previous: Readonly<Record<string, readonly string[]>> = PREVIOUS_SHIPPED_VERSIONS,
): Promise<number> {
  const record = await shippedTemplatesRecord(db);
  let upgraded = 0;
  for (const t of list) {
    const id = record[t.key];
    const earlier = previous[t.key];
    if (!id || !earlier?.length) continue;
    const [row] = await rows<{ content: string | null; storage_key: string | null }>(
      db,
      sql`select t.content, f.storage_key from templates t left join files f on f.id = t.file_id where t.id = ${id} and t.deleted_at is null`,
    );
    if (!row) continue;
    const bytes = await fs.readFile(path.join(here, t.file));
    if (t.file.endsWith('.docx')) {
      if (!row.storage_key) continue;
      const stored = await files.read(row.storage_key).catch(() => null);
      if (!stored || !earlier.includes(sha256(stored))) continue;
      await db.transaction(async (tx) => {
        const file = await files.save(tx, { userId: null, name: `${t.title}.docx`, mime: DOCX_MIME, buffer: bytes, ext: 'docx' });
        await tx.execute(sql`update templates set file_id = ${file.id}, updated_at = now() where id = ${id}`);
      });
    } else {
      if (row.content === null || !earlier.includes(sha256(row.content.trim()))) continue;
      await db.execute(sql`update templates set content = ${bytes.toString('utf8').trim()}, updated_at = now() where id = ${id}`);
    }
    upgraded++;
  }
  return upgraded;
}

/** The id of a shipped template this install made (and still has), for the demo catalogue. */
export async function shippedTemplateId(db: Queryable, key: string): Promise<number | null> {
  const id = (await shippedTemplatesRecord(db))[key];
  if (!id) return null;
  const live = await rows<{ id: number }>(db, sql`select id from templates where id = ${id} and deleted_at is null`);
  return live[0]?.id ?? null;
}
