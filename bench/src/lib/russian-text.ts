// Long Russian texts for the publication benches: words of the uniqueness test set's texts (real
// Russian prose), drawn at random into sentences and paragraphs, so every call gives a different
// text of real-looking words; and the degenerate text of one short word repeated.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Random } from './random.ts';

const corpus = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../uniqueness-set/corpus');

let vocabulary: string[] | null = null;
function words(): string[] {
  if (!vocabulary) {
    const seen = new Set<string>();
    for (const f of fs.readdirSync(corpus).sort()) {
      for (const w of fs
        .readFileSync(path.join(corpus, f), 'utf8')
        .toLowerCase()
        .match(/[а-яё]+/gu) ?? [])
        seen.add(w);
    }
    vocabulary = [...seen];
  }
  return vocabulary;
}

/** HTML paragraphs of random Russian words, `chars` characters of HTML in all. */
export function russianHtml(chars: number, seed: number): string {
  const rnd = new Random(seed);
  const list = words();
  const parts: string[] = [];
  let length = 0;
  while (length < chars) {
    const sentences: string[] = [];
    for (let s = rnd.int(3, 6); s > 0; s--) {
      const ws: string[] = [];
      for (let k = rnd.int(6, 16); k > 0; k--) ws.push(list[rnd.int(0, list.length - 1)]);
      const sentence = ws.join(' ');
      sentences.push(sentence[0].toUpperCase() + sentence.slice(1) + '.');
    }
    const p = `<p>${sentences.join(' ')}</p>`;
    parts.push(p);
    length += p.length;
  }
  return parts.join('').slice(0, chars);
}

/** «а а а …»: one short word repeated, `chars` characters. */
export function degenerateHtml(chars: number): string {
  return 'а '.repeat(Math.ceil(chars / 2)).slice(0, chars);
}
