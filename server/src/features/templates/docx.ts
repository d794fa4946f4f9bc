import Docxtemplater from 'docxtemplater';
import PizZip from 'pizzip';
import { isKnownMacro } from '../macros/macro-catalogue.ts';
import { missingMarker } from '../macros/render-macros.ts';

/** A .docx template that cannot be used, with the reasons in Russian for the operator. */
export class DocxTemplateError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
  }
}

const DELIMITERS = { start: '${', end: '}' };

interface DocxError {
  properties?: { id?: string; xtag?: string; context?: string; explanation?: string; errors?: DocxError[] };
  message?: string;
}

function describe(err: DocxError): string {
  const p = err.properties ?? {};
  const where = p.xtag ?? p.context ?? '';
  switch (p.id) {
    case 'unclosed_tag':
      return `Макрос не закрыт: «${(p.context ?? where).trim()}»`;
    case 'unopened_tag':
      return `Лишняя закрывающая скобка: «${where}}»`;
    case 'duplicate_open_tag':
    case 'duplicate_close_tag':
      return `Повтор скобок в макросе «${where}»`;
    default:
      return p.explanation ? `Ошибка в шаблоне: ${p.explanation}${where ? ` («${where}»)` : ''}` : 'Файл не является корректным шаблоном .docx';
  }
}

function open(buffer: Buffer, tags: string[], values: Record<string, string> | null): Docxtemplater {
  let zip: PizZip;
  try {
    zip = new PizZip(buffer);
  } catch {
    throw new DocxTemplateError(['Файл повреждён или не является документом .docx']);
  }
  if (!zip.file('word/document.xml')) throw new DocxTemplateError(['Файл не является документом Word (.docx)']);
  try {
    return new Docxtemplater(zip, {
      delimiters: DELIMITERS,
      errorLogging: false,
      paragraphLoop: true,
      linebreaks: true,
      // Macro names are flat ('user.fio'), not paths into objects.
      parser: (tag: string) => {
        const name = tag.trim();
        tags.push(name);
        return { get: () => (values && Object.prototype.hasOwnProperty.call(values, name) ? values[name] : undefined) };
      },
      nullGetter: (part: { value?: string }) => missingMarker(String(part.value ?? '').trim()),
    });
  } catch (err) {
    const e = err as DocxError;
    const inner = e.properties?.errors?.length ? e.properties.errors : [e];
    throw new DocxTemplateError([...new Set(inner.map(describe))]);
  }
}

/**
 * Checks an uploaded .docx template: it opens, its `${...}` macros are well formed (docxtemplater joins
 * macros Word split across runs) and every macro is in the catalogue. Returns the macros used.
 */
export function inspectDocx(buffer: Buffer): string[] {
  const tags: string[] = [];
  open(buffer, tags, null);
  const names = [...new Set(tags)];
  const bad = names.filter((n) => !/^[a-zA-Z_][\w.]*$/.test(n));
  const unknown = names.filter((n) => !bad.includes(n) && !isKnownMacro(n));
  const problems = [...bad.map((n) => `Некорректный макрос: «\${${n}}»`), ...(unknown.length ? [`Неизвестные макросы: ${unknown.map((n) => `\${${n}}`).join(', ')}`] : [])];
  if (problems.length) throw new DocxTemplateError(problems);
  return names;
}

/** The template with every macro filled; a macro without a value prints a visible marker. */
export function fillDocx(buffer: Buffer, values: Record<string, string>): Buffer {
  const doc = open(buffer, [], values);
  doc.render();
  return doc.getZip().generate({ type: 'nodebuffer', compression: 'DEFLATE' }) as Buffer;
}

/** All the text of a .docx (paragraphs joined by new lines), for tests and previews. */
export function docxText(buffer: Buffer): string {
  const xml = new PizZip(buffer).file('word/document.xml')?.asText() ?? '';
  return xml
    .replace(/<\/w:p>/g, '\n')
    .replace(/<[^>]+>/g, '')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
    .trim();
}
