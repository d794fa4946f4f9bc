import QRCode from 'qrcode';

// QR codes of verification addresses (decision 039): `qrcode` is pure JavaScript (PNG through pngjs),
// so nothing is downloaded or run outside Node. A code of a ~40-character address takes about a
// millisecond; it is made once per printed document (the document itself is cached).

const OPTIONS = { errorCorrectionLevel: 'M', margin: 2 } as const;

/** A PNG of the QR code, `width` pixels square: what a .docx embeds. */
export function qrPng(text: string, width = 360): Promise<Buffer> {
  return QRCode.toBuffer(text, { ...OPTIONS, type: 'png', width });
}

/** An SVG of the QR code (black modules on white): what an HTML page shows. */
export function qrSvg(text: string): Promise<string> {
  return QRCode.toString(text, { ...OPTIONS, type: 'svg' });
}

/** An <img> of the QR code as a data: URL (HTML templates: the print page allows pictures only as data URLs). */
export async function qrImgHtml(text: string, sizeMm = 22): Promise<string> {
  const svg = await qrSvg(text);
  const src = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
  return `<img class="verification-qr" src="${src}" alt="QR-код для проверки документа" style="width:${sizeMm}mm;height:${sizeMm}mm">`;
}
