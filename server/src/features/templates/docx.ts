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

/** A picture a macro stands for (the QR code of `${cert.qr}`): PNG bytes and the printed size. */
export interface DocxImage {
  png: Buffer;
  /** Width and height on paper, in centimetres. */
  cm: number;
}

/**
 * The template with every macro filled, external links stripped; a macro without a value prints a
 * blank line to fill by hand. A macro named in `images` (and having a value) becomes that picture,
 * inline where the macro stands.
 */
export function fillDocx(buffer: Buffer, values: Record<string, string>, images: Record<string, DocxImage> = {}): Buffer {
  const markers = new Map<string, DocxImage>();
  let filled = values;
  for (const [name, image] of Object.entries(images)) {
    if (!Object.prototype.hasOwnProperty.call(values, name)) continue;
    const marker = `\u2063IMG${markers.size}\u2063`;
    markers.set(marker, image);
    filled = { ...filled, [name]: marker };
  }
  const doc = open(buffer, [], filled);
  doc.render();
  const zip = doc.getZip();
  stripExternalLinks(zip);
  if (markers.size) placeImages(zip, markers);
  return zip.generate({ type: 'nodebuffer', compression: 'DEFLATE' }) as Buffer;
}

const EMU_PER_CM = 360000;
const REL_IMAGE = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/image';

function drawingXml(relId: string, drawingId: number, cm: number): string {
  const size = Math.round(cm * EMU_PER_CM);
  const a = 'http://schemas.openxmlformats.org/drawingml/2006/main';
  return (
    `<w:drawing><wp:inline xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" distT="0" distB="0" distL="0" distR="0">` +
    `<wp:extent cx="${size}" cy="${size}"/><wp:docPr id="${drawingId}" name="QR ${drawingId}" descr="QR-код для проверки документа"/>` +
    `<wp:cNvGraphicFramePr><a:graphicFrameLocks xmlns:a="${a}" noChangeAspect="1"/></wp:cNvGraphicFramePr>` +
    `<a:graphic xmlns:a="${a}"><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture">` +
    `<pic:pic xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:nvPicPr><pic:cNvPr id="${drawingId}" name="qr-${drawingId}.png"/><pic:cNvPicPr/></pic:nvPicPr>` +
    `<pic:blipFill><a:blip xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" r:embed="${relId}"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>` +
    `<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="${size}" cy="${size}"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr>` +
    `</pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing>`
  );
}

/**
 * Puts each picture where its marker was printed: the text run is split around the marker and the
 * picture sits between (a run may hold text and drawings in turn), the PNG is added to word/media,
 * related from the part (body, header or footer) and typed in [Content_Types].xml. A plain drawing
 * that Word and LibreOffice both read, with no docxtemplater module.
 */
function placeImages(zip: PizZip, markers: Map<string, DocxImage>): void {
  let drawingId = 9000;
  let used = false;
  const media = new Map<string, string>(); // marker -> media file name
  for (const part of Object.keys(zip.files)) {
    if (!/^word\/(document|header\d*|footer\d*)\.xml$/.test(part)) continue;
    let xml = zip.file(part)!.asText();
    const rels: string[] = [];
    for (const [marker, image] of markers) {
      if (!xml.includes(marker)) continue;
      let target = media.get(marker);
      if (!target) {
        target = `media/verification-${media.size + 1}.png`;
        media.set(marker, target);
        zip.file(`word/${target}`, image.png);
      }
      const relId = `rIdVerify${rels.length + 1}`;
      rels.push(`<Relationship Id="${relId}" Type="${REL_IMAGE}" Target="${target}"/>`);
      // The marker's text element: `<w:t ...>before MARKER after</w:t>` (a value is one text element).
      const textWithMarker = new RegExp(`<w:t(?:\\s[^>]*)?>([^<]*?)${marker}([^<]*)</w:t>`, 'g');
      xml = xml.replace(
        textWithMarker,
        (_whole, before: string, after: string) =>
          `<w:t xml:space="preserve">${before}</w:t>${drawingXml(relId, ++drawingId, image.cm)}<w:t xml:space="preserve">${after}</w:t>`,
      );
      used = true;
    }
    if (!rels.length) continue;
    zip.file(part, xml);
    const relsPart = part.replace(/^word\/(.*)$/, 'word/_rels/$1.rels');
    const current =
      zip.file(relsPart)?.asText() ??
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"></Relationships>';
    zip.file(relsPart, current.replace(/<\/Relationships>\s*$/, `${rels.join('')}</Relationships>`));
  }
  if (!used) return;
  const types = zip.file('[Content_Types].xml')?.asText();
  if (types && !/Extension="png"/i.test(types)) {
    zip.file('[Content_Types].xml', types.replace(/<\/Types>\s*$/, '<Default Extension="png" ContentType="image/png"/></Types>'));
  }
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
