import type pg from 'pg';
import { Random } from './random.ts';

// What clients type into the service search: one or two words of a title they have in mind, often
// cut short ("грамотн", "математ"). Drawn from the titles of visible services, so frequent words
// come up as often as they are in the catalogue. The same seed gives the same list to load.ts
// (HTTP) and pgbench.ts (SQL).

export interface SearchQuery {
  keywords: string;
  words: string[];
}

const WORD = /[\p{L}\p{N}-]+/gu;

function wordsOf(title: string): string[] {
  return (title.toLowerCase().match(WORD) ?? []).filter((w) => w.length >= 4);
}

/** Sometimes a stem: users stop typing after 5-7 letters. */
function typed(r: Random, word: string): string {
  return word.length > 7 && r.chance(0.3) ? word.slice(0, r.int(5, 7)) : word;
}

export async function searchQueries(pool: pg.Pool, count = 1000, seed = 20_251_122): Promise<SearchQuery[]> {
  const { rows } = await pool.query<{ title: string }>('select title from services where deleted_at is null and is_visible order by id');
  if (rows.length === 0) throw new Error('No visible services: run generate.ts --services first.');
  const r = new Random(seed);
  const out: SearchQuery[] = [];
  while (out.length < count) {
    const words = wordsOf(r.pick(rows).title);
    if (words.length === 0) continue;
    let chosen: string[];
    if (words.length >= 2 && r.chance(0.4)) {
      const [i, j] = r.sample([...words.keys()], 2).sort((a, b) => a - b);
      if (words[i] === words[j]) continue;
      chosen = [typed(r, words[i]), typed(r, words[j])];
    } else {
      chosen = [typed(r, r.pick(words))];
    }
    out.push({ keywords: chosen.join(' '), words: chosen });
  }
  return out;
}
