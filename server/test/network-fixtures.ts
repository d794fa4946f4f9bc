import http from 'node:http';
import PizZip from 'pizzip';
import { makeDocx } from '../src/platform/converters/minimal-docx.ts';

/** A listener on 127.0.0.1 that records every request it gets: what a template must never reach. */
export async function startListener(): Promise<{ url: string; hits: string[]; close: () => Promise<void> }> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'image/png' }).end();
  });
  const sockets = new Set<import('node:net').Socket>();
  server.on('connection', (s) => {
    hits.push('connection');
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

const NS =
  'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships" ' +
  'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" ' +
  'xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"';

/**
 * A .docx whose paragraphs are the given texts followed by a picture linked to `imageUrl`
 * (`<a:blip r:link>` and a relationship with TargetMode="External"), as Word writes "Insert > Picture >
 * Link to file", plus a hyperlink to the same address (a click, never fetched: allowed).
 */
export function docxWithLinkedPicture(paragraphs: string[], imageUrl: string): Buffer {
  const zip = new PizZip(makeDocx(paragraphs));
  const picture =
    '<w:p><w:r><w:drawing><wp:inline><wp:extent cx="952500" cy="952500"/><wp:docPr id="1" name="Логотип"/>' +
    '<a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic>' +
    '<pic:nvPicPr><pic:cNvPr id="1" name="logo.png"/><pic:cNvPicPr/></pic:nvPicPr>' +
    '<pic:blipFill><a:blip r:link="rIdLogo"/><a:stretch><a:fillRect/></a:stretch></pic:blipFill>' +
    '<pic:spPr><a:xfrm><a:off x="0" y="0"/><a:ext cx="952500" cy="952500"/></a:xfrm><a:prstGeom prst="rect"><a:avLst/></a:prstGeom></pic:spPr>' +
    '</pic:pic></a:graphicData></a:graphic></wp:inline></w:drawing></w:r></w:p>' +
    '<w:p><w:hyperlink r:id="rIdSite"><w:r><w:t>Сайт центра</w:t></w:r></w:hyperlink></w:p>';
  const doc = zip
    .file('word/document.xml')!
    .asText()
    .replace(/<w:document [^>]*>/, `<w:document ${NS}>`)
    .replace('<w:sectPr>', `${picture}<w:sectPr>`);
  zip.file('word/document.xml', doc);
  zip.file(
    'word/_rels/document.xml.rels',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
      `<Relationship Id="rIdLogo" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/image" Target="${imageUrl}" TargetMode="External"/>` +
      `<Relationship Id="rIdSite" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/hyperlink" Target="${imageUrl}/site" TargetMode="External"/>` +
      '</Relationships>',
  );
  return zip.generate({ type: 'nodebuffer', compression: 'DEFLATE' }) as Buffer;
}
