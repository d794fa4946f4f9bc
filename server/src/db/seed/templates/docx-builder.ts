import PizZip from 'pizzip';
import { escapeHtml as esc } from '../../../platform/html.ts';

// A small writer of real Word documents (.docx, Office Open XML) for the templates the product
// ships: paragraphs with bold runs, tables, page setup. The texts are written in ./sources.ts;
// `npm run build-templates -w server` writes the files beside them.

export type Align = 'left' | 'center' | 'right' | 'both';

export interface Paragraph {
  kind: 'p';
  /** Text with **bold** parts; `${macro}` stays in one run. */
  text: string;
  align?: Align;
  /** Font size in points. */
  size?: number;
  bold?: boolean;
  italic?: boolean;
  /** Letter spacing in points (titles of certificates). */
  spacing?: number;
  color?: string;
  /** Space before and after, in points. */
  before?: number;
  after?: number;
  /** First-line indent in centimetres. */
  indent?: number;
  keepNext?: boolean;
  pageBreakBefore?: boolean;
}

export interface Table {
  kind: 'table';
  /** Column widths in centimetres. */
  widths: number[];
  rows: Paragraph[][][];
  borders?: boolean;
}

export type Block = Paragraph | Table;

export interface Page {
  landscape?: boolean;
  /** Margins in centimetres: top, right, bottom, left. */
  margins?: [number, number, number, number];
  /** A double frame around the page (certificates). */
  frame?: string;
}

export interface DocxSource {
  /** Document title in its properties. */
  title: string;
  page?: Page;
  /** Default font size in points. */
  size?: number;
  blocks: Block[];
}

export const p = (text: string, opts: Omit<Paragraph, 'kind' | 'text'> = {}): Paragraph => ({ kind: 'p', text, ...opts });
export const table = (widths: number[], rows: Paragraph[][][], borders = true): Table => ({ kind: 'table', widths, rows, borders });

const twips = (cm: number) => Math.round((cm / 2.54) * 1440);

function runs(par: Paragraph): string {
  const parts = par.text.split('**');
  return parts
    .map((text, i) => {
      if (text === '') return '';
      const bold = par.bold || i % 2 === 1;
      const props = [
        bold ? '<w:b/><w:bCs/>' : '',
        par.italic ? '<w:i/><w:iCs/>' : '',
        par.color ? `<w:color w:val="${par.color}"/>` : '',
        par.spacing ? `<w:spacing w:val="${Math.round(par.spacing * 20)}"/>` : '',
        par.size ? `<w:sz w:val="${par.size * 2}"/><w:szCs w:val="${par.size * 2}"/>` : '',
      ].join('');
      return `<w:r>${props ? `<w:rPr>${props}</w:rPr>` : ''}<w:t xml:space="preserve">${esc(text)}</w:t></w:r>`;
    })
    .join('');
}

function paragraph(par: Paragraph): string {
  const props = [
    par.keepNext ? '<w:keepNext/>' : '',
    par.pageBreakBefore ? '<w:pageBreakBefore/>' : '',
    `<w:spacing w:before="${Math.round((par.before ?? 0) * 20)}" w:after="${Math.round((par.after ?? 4) * 20)}"/>`,
    par.indent ? `<w:ind w:firstLine="${twips(par.indent)}"/>` : '',
    `<w:jc w:val="${par.align ?? 'both'}"/>`,
  ].join('');
  return `<w:p><w:pPr>${props}</w:pPr>${runs(par)}</w:p>`;
}

function tableXml(t: Table): string {
  const border = t.borders ? 'single' : 'nil';
  const borders = ['top', 'left', 'bottom', 'right', 'insideH', 'insideV']
    .map((side) => `<w:${side} w:val="${border}" w:sz="4" w:space="0" w:color="000000"/>`)
    .join('');
  const grid = t.widths.map((w) => `<w:gridCol w:w="${twips(w)}"/>`).join('');
  const body = t.rows
    .map(
      (row) =>
        `<w:tr><w:trPr><w:cantSplit/></w:trPr>${row
          .map(
            (cell, i) =>
              `<w:tc><w:tcPr><w:tcW w:w="${twips(t.widths[i])}" w:type="dxa"/></w:tcPr>${(cell.length ? cell : [p('')]).map(paragraph).join('')}</w:tc>`,
          )
          .join('')}</w:tr>`,
    )
    .join('');
  return `<w:tbl><w:tblPr><w:tblW w:w="${twips(t.widths.reduce((a, b) => a + b, 0))}" w:type="dxa"/><w:tblLayout w:type="fixed"/><w:tblBorders>${borders}</w:tblBorders><w:tblCellMar><w:left w:w="85" w:type="dxa"/><w:right w:w="85" w:type="dxa"/></w:tblCellMar></w:tblPr><w:tblGrid>${grid}</w:tblGrid>${body}</w:tbl>`;
}

function section(page: Page = {}): string {
  const [top, right, bottom, left] = (page.margins ?? [2, 1.5, 2, 2.5]).map(twips);
  const size = page.landscape ? '<w:pgSz w:w="16838" w:h="11906" w:orient="landscape"/>' : '<w:pgSz w:w="11906" w:h="16838"/>';
  const frame = page.frame
    ? `<w:pgBorders w:offsetFrom="page">${['top', 'left', 'bottom', 'right'].map((side) => `<w:${side} w:val="double" w:sz="18" w:space="24" w:color="${page.frame}"/>`).join('')}</w:pgBorders>`
    : '';
  return `<w:sectPr>${size}<w:pgMar w:top="${top}" w:right="${right}" w:bottom="${bottom}" w:left="${left}" w:header="708" w:footer="708" w:gutter="0"/>${frame}</w:sectPr>`;
}

/** The document part alone (what a change of the source changes); the tests compare it with the committed files. */
export function documentXml(source: DocxSource): string {
  const body = source.blocks.map((b) => (b.kind === 'p' ? paragraph(b) : tableXml(b))).join('');
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><w:body>${body}${section(source.page)}</w:body></w:document>`;
}

function stylesXml(size: number): string {
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:docDefaults><w:rPrDefault><w:rPr><w:rFonts w:ascii="Times New Roman" w:hAnsi="Times New Roman" w:eastAsia="Times New Roman" w:cs="Times New Roman"/><w:sz w:val="${size * 2}"/><w:szCs w:val="${size * 2}"/><w:lang w:val="ru-RU" w:eastAsia="ru-RU" w:bidi="ar-SA"/></w:rPr></w:rPrDefault><w:pPrDefault><w:pPr><w:spacing w:after="80" w:line="240" w:lineRule="auto"/></w:pPr></w:pPrDefault></w:docDefaults><w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/><w:qFormat/></w:style><w:style w:type="table" w:default="1" w:styleId="TableNormal"><w:name w:val="Normal Table"/><w:tblPr><w:tblInd w:w="0" w:type="dxa"/><w:tblCellMar><w:top w:w="0" w:type="dxa"/><w:left w:w="108" w:type="dxa"/><w:bottom w:w="0" w:type="dxa"/><w:right w:w="108" w:type="dxa"/></w:tblCellMar></w:tblPr></w:style></w:styles>`;
}

/** A complete .docx: content types, relationships, styles (Times New Roman, Russian), core properties. */
export function buildDocx(source: DocxSource): Buffer {
  const zip = new PizZip();
  const date = new Date('2026-01-01T00:00:00Z');
  const add = (name: string, text: string) => zip.file(name, text, { date });
  add(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/><Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/></Types>',
  );
  add(
    '_rels/.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/><Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/></Relationships>',
  );
  add(
    'word/_rels/document.xml.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>',
  );
  add(
    'docProps/core.xml',
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"><dc:title>${esc(source.title)}</dc:title><dc:language>ru-RU</dc:language></cp:coreProperties>`,
  );
  add('word/styles.xml', stylesXml(source.size ?? 12));
  add('word/document.xml', documentXml(source));
  return zip.generate({ type: 'nodebuffer', compression: 'DEFLATE' }) as Buffer;
}
