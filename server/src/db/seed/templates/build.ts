// Writes the shipped .docx templates from their readable source (./sources.ts):
//   npm run build-templates -w server
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDocx } from './docx-builder.ts';
import { docxSources } from './sources.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
for (const [name, source] of Object.entries(docxSources)) {
  fs.writeFileSync(path.join(here, `${name}.docx`), buildDocx(source));
  console.log(`${name}.docx`);
}
