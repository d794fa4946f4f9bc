import Docxtemplater from 'docxtemplater';
import PizZip from 'pizzip';
import { TemplateMessages } from '@edu/domain/templates/template';
import { isKnownMacro } from '../macros/macro-catalogue.ts';
import { BLANK_LINE } from '../macros/render-macros.ts';

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

function readZip(buffer: Buffer): PizZip {
  let zip: PizZip;
  try {
    zip = new PizZip(buffer);
  } catch {
    throw new DocxTemplateError(['Файл повреждён или не является документом .docx']);
  }
  if (!zip.file('word/document.xml')) throw new DocxTemplateError(['Файл не является документом Word (.docx)']);
  return zip;
}

function open(buffer: Buffer, tags: string[], values: Record<string, string> | null, zip: PizZip = readZip(buffer)): Docxtemplater {
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
      nullGetter: () => BLANK_LINE,
    });
  } catch (err) {
    const e = err as DocxError;
    const inner = e.properties?.errors?.length ? e.properties.errors : [e];
    throw new DocxTemplateError([...new Set(inner.map(describe))]);
  }
}

/** The macro names a stored .docx template uses (unchecked: templates saved before a rule still print). */
export function docxMacros(buffer: Buffer): string[] {
  const tags: string[] = [];
  open(buffer, tags, null);
  return [...new Set(tags)];
}

/**
 * Checks an uploaded .docx template: it opens, it links to no outside file, its `${...}` macros are
 * well formed (docxtemplater joins macros Word split across runs) and every macro is in the
 * catalogue. Returns the macros used.
 */
export function inspectDocx(buffer: Buffer): string[] {
  const tags: string[] = [];
  const zip = readZip(buffer);
  const outside = externalLinks(zip);
  if (outside.length) throw new DocxTemplateError([TemplateMessages.externalLinks([...new Set(outside.map((l) => l.target))])]);
  open(buffer, tags, null, zip);
  const names = [...new Set(tags)];
  const bad = names.filter((n) => !/^[a-zA-Z_][\w.]*$/.test(n));
  const unknown = names.filter((n) => !bad.includes(n) && !isKnownMacro(n));
  const problems = [
    ...bad.map((n) => `Некорректный макрос: «\${${n}}»`),
    ...(unknown.length ? [`Неизвестные макросы: ${unknown.map((n) => `\${${n}}`).join(', ')}`] : []),
  ];
  if (problems.length) throw new DocxTemplateError(problems);
  return names;
}

/** The template with every macro filled, external links stripped; a macro without a value prints a blank line to fill by hand. */
export function fillDocx(buffer: Buffer, values: Record<string, string>): Buffer {
  const doc = open(buffer, [], values);
  doc.render();
  const zip = doc.getZip();
  stripExternalLinks(zip);
  return zip.generate({ type: 'nodebuffer', compression: 'DEFLATE' }) as Buffer;
}

// Templates cannot reach the network (decision 021). A .docx names outside files in its relationship
// parts (`*.rels`): `<Relationship Type=".../image" Target="http://..." TargetMode="External"/>` makes a
// reader fetch that picture (or template, frame, OLE object, sub-document) every time it opens the
// file. Hyperlinks are external too but only followed by a click, so they stay.

const RELATIONSHIP = /<(?:[\w.-]+:)?Relationship\b(?:[^>"']|"[^"]*"|'[^']*')*?(?:\/>|>[\s\S]*?<\/(?:[\w.-]+:)?Relationship\s*>)/g;
const ATTRIBUTE = /([\w.:-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const XML_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function xmlText(value: string): string {
  return value.replace(/&(#x[\da-f]+|#\d+|\w+);/gi, (whole, ref: string) => {
    if (ref[0] === '#') return String.fromCodePoint(ref[1].toLowerCase() === 'x' ? parseInt(ref.slice(2), 16) : Number(ref.slice(1)));
    return XML_ENTITIES[ref] ?? whole;
  });
}

interface ExternalLink {
  part: string;
  /** The relationship element as written. */
  element: string;
  target: string;
}

/** Relationships to outside files that a reader would fetch: every External one but hyperlinks. */
function externalLinks(zip: PizZip): ExternalLink[] {
  const found: ExternalLink[] = [];
  for (const part of Object.keys(zip.files)) {
    if (!part.toLowerCase().endsWith('.rels') || zip.files[part].dir) continue;
    for (const [element] of zip.file(part)!.asText().matchAll(RELATIONSHIP)) {
      const attrs: Record<string, string> = {};
      for (const m of element.matchAll(ATTRIBUTE)) attrs[m[1].replace(/^[\w.-]+:/, '').toLowerCase()] = xmlText(m[2] ?? m[3] ?? '').trim();
      if (attrs.targetmode?.toLowerCase() !== 'external') continue;
      if (/\/hyperlink$/i.test(attrs.type ?? '')) continue;
      found.push({ part, element, target: attrs.target ?? '' });
    }
  }
  return found;
}

/** Removes every relationship to an outside file (a linked picture then prints as an empty frame). */
function stripExternalLinks(zip: PizZip): void {
  const byPart = new Map<string, string[]>();
  for (const link of externalLinks(zip)) byPart.set(link.part, [...(byPart.get(link.part) ?? []), link.element]);
  for (const [part, elements] of byPart) {
    let xml = zip.file(part)!.asText();
    for (const element of elements) xml = xml.replace(element, '');
    zip.file(part, xml);
  }
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
