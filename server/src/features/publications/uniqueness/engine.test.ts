import { describe, expect, it } from 'vitest';
import { analyse, compare, MemoryIndex, prepareText, selectCandidates, spansOf, stemCodes, stemCodesFromBytes, stemCodesToBytes } from './engine.ts';
import { publicationPlainText } from './plain-text.ts';

// Three unrelated stored texts: two on school projects, one on the forest.
const projects =
  'Хороший проект начинается не с темы, а с вопроса. Когда шестиклассник спрашивает, почему на школьном окне зимой ' +
  'появляются узоры только с одной стороны, у него уже есть исследовательская задача. Учителю остаётся лишь помочь ' +
  'сформулировать гипотезу, подобрать простые приборы и составить план наблюдений. Тема, предложенная сверху, почти ' +
  'всегда проигрывает вопросу, который возник у самого ученика. Второй важный шаг — планирование работы по этапам.';
const conference =
  'Весной ученики готовят выступления на конференции. Мы просим их уложиться в семь минут и рассказывать своими словами, ' +
  'а не читать с листа. Репетиции проходят в классе перед одноклассниками, которые задают вопросы и честно говорят, что ' +
  'было непонятно. После двух или трёх репетиций даже застенчивые дети выступают уверенно и спокойно.';
const forest =
  'Основу леса составляют деревья. Ель хорошо переносит тень и со временем вытесняет светолюбивые берёзу и осину. ' +
  'Однако после пожара или вырубки первыми на освободившемся месте появляются именно лиственные породы. Под их пологом ' +
  'постепенно поднимаются молодые ели, и через несколько десятилетий лес снова становится хвойным.';
const own =
  'Наша школа третий год проводит весеннюю неделю науки. Младшие классы показывают опыты с водой и светом, старшие ' +
  'защищают собственные исследования перед жюри из родителей и выпускников.';

function index() {
  const idx = new MemoryIndex<string>();
  idx.add('projects', projects);
  idx.add('conference', conference);
  idx.add('forest', forest);
  return idx;
}

const letters = (s: string) => s.match(/[\p{L}\p{N}]/gu)?.length ?? 0;

describe('uniqueness check', () => {
  it('finds a full copy: 0 % unique, one source at 100 %, one span over the whole text', () => {
    const r = index().check(projects);
    expect(r.uniqueness).toBe(0);
    expect(r.matches.map((m) => [m.source, m.percent])).toEqual([['projects', 100]]);
    expect(r.spans).toEqual([[0, projects.length]]);
    expect(r.words.length).toBe(analyse(projects).tokens.length);
  });

  it('gives the same result from stored stem codes as from the source texts', () => {
    const check = prepareText(`${own} ${projects.slice(0, 200)} ${forest}`);
    const sources = [projects, forest, conference].map((text, id) => ({ id, text }));
    const tokens = analyse(projects).tokens;
    const codes = sources.map((s) => ({ id: s.id, codes: stemCodesFromBytes(stemCodesToBytes(stemCodes(analyse(s.text).tokens))) }));
    expect(codes[0].codes).toEqual(stemCodes(tokens));
    expect(codes[0].codes.length).toBe(tokens.length);
    const fromTexts = compare(check, sources);
    expect(fromTexts.matches.length).toBeGreaterThan(0);
    expect(compare(check, codes)).toEqual(fromTexts);
  });

  it('gives 100 % to an original text on the same topic', () => {
    const r = index().check(own);
    expect(r).toEqual({ uniqueness: 100, matches: [], words: [], spans: [] });
  });

  it('measures uniqueness as the share of letters and digits found in no source, with exact spans', () => {
    const copied = conference.split('. ').slice(0, 3).join('. ') + '.';
    const text = `${own}\n\n${copied}`;
    const r = index().check(text);
    const start = text.indexOf(copied);
    expect(r.matches.map((m) => m.source)).toEqual(['conference']);
    expect(r.spans).toEqual([[start, text.length]]);
    const expected = Math.round(10000 * (1 - letters(copied) / letters(text))) / 100;
    expect(r.uniqueness).toBe(expected);
    expect(r.matches[0].percent).toBe(Math.round(10000 * (letters(copied) / letters(text))) / 100);
    // The word indexes are those of the copied part.
    const tokens = analyse(text).tokens;
    expect(r.words.map((i) => tokens[i].start >= start)).not.toContain(false);
    expect(r.words.length).toBe(analyse(copied).tokens.length);
  });

  it('reports parts of several sources, each with its own share and spans', () => {
    const a = projects.slice(0, projects.indexOf('Учителю'));
    const b = forest.slice(forest.indexOf('Однако'));
    const text = `${a} ${own} ${b}`;
    const r = index().check(text);
    expect(r.matches.map((m) => m.source).sort()).toEqual(['forest', 'projects']);
    const byId = Object.fromEntries(r.matches.map((m) => [m.source, m]));
    expect(byId.projects.spans.map(([s, e]) => text.slice(s, e))).toEqual([a.trim()]);
    expect(byId.forest.spans.map(([s, e]) => text.slice(s, e))).toEqual([b]);
    expect(r.uniqueness).toBeCloseTo(100 * (letters(own) / letters(text)), 1);
  });

  it('survives Latin look-alikes, invisible characters and reordered sentences', () => {
    const sentences = forest.split(/(?<=\.) /);
    const disguised = [...sentences].reverse().join(' ').replace(/о/g, 'o').replace(/ле/g, 'л\u00ADе');
    const r = index().check(disguised);
    expect(r.matches.map((m) => m.source)).toEqual(['forest']);
    expect(r.uniqueness).toBeLessThan(3);
  });

  it('survives synonym substitution of many content words', () => {
    const rewritten = projects
      .replace('Хороший', 'Удачный')
      .replace('начинается', 'стартует')
      .replace('спрашивает', 'интересуется')
      .replace('узоры', 'рисунки')
      .replace('исследовательская', 'научная')
      .replace('помочь', 'подсобить')
      .replace('подобрать', 'выбрать')
      .replace('простые', 'несложные')
      .replace('наблюдений', 'опытов')
      .replace('предложенная', 'данная')
      .replace('проигрывает', 'уступает')
      .replace('важный', 'существенный');
    const r = index().check(rewritten);
    expect(r.matches.map((m) => m.source)).toEqual(['projects']);
    expect(r.uniqueness).toBeLessThan(10);
  });

  it('does not count a short shared phrase as a borrowing', () => {
    const r = index().check(`${own} Основу леса составляют деревья, а не кусты.`);
    expect(r.uniqueness).toBe(100);
    expect(r.matches).toEqual([]);
  });

  it('does not report a stock phrase across a sentence boundary that holds no whole clause, but keeps a copied clause and a longer run', () => {
    const stored =
      'Чтобы изменить свойства слоя, щёлкните по нему правой кнопкой мыши. В открывшемся контекстном меню выберите пункт «Свойства» и задайте имя слоя.';
    const checked =
      'Откройте файл с рисунком и найдите нужный фрагмент, затем нажмите правой кнопкой мыши. В открывшемся контекстном меню отыщите команду экспорта в формат PNG.';
    const stray = compare(prepareText(checked), [{ id: 1, text: stored }]);
    expect(stray).toEqual({ uniqueness: 100, matches: [], words: [], spans: [] });
    // The same words as a whole clause of the checked text are a borrowing.
    const clause = 'Сначала сохраните работу. Затем щёлкните по нему правой кнопкой мыши. В открывшемся контекстном меню нажмите Удалить.';
    const copied = compare(prepareText(clause), [{ id: 1, text: stored }]);
    expect(copied.matches.map((m) => m.spans.map(([a, b]) => clause.slice(a, b)))).toEqual([
      ['щёлкните по нему правой кнопкой мыши. В открывшемся контекстном меню'],
    ]);
  });

  it('attributes a fragment found in two sources to the one covering more, and lists the other only when it adds its own part', () => {
    const idx = index();
    idx.add('projects-copy', projects.slice(0, projects.indexOf('Учителю')));
    const r = idx.check(projects);
    expect(r.matches.map((m) => m.source)).toEqual(['projects']);
    const r2 = idx.check(`${projects.slice(0, projects.indexOf('Учителю'))} ${conference}`);
    expect(r2.matches.map((m) => m.source).sort()).toEqual(['conference', 'projects']);
  });

  it('excludes a stored text from its own check and follows replacement and removal', () => {
    const idx = index();
    expect(idx.check(forest, { exclude: 'forest' }).uniqueness).toBe(100);
    idx.add('forest', own);
    expect(idx.check(forest).uniqueness).toBe(100);
    expect(idx.check(own).matches.map((m) => m.source)).toEqual(['forest']);
    idx.remove('forest');
    expect(idx.check(own).uniqueness).toBe(100);
    expect(idx.size).toBe(2);
  });

  it('answers 100 % for a text without letters', () => {
    expect(index().check('— … !!!').uniqueness).toBe(100);
    expect(compare(prepareText(''), []).uniqueness).toBe(100);
  });
});

describe('cost', () => {
  // A paragraph repeated over the whole text: every trigram occurs hundreds of times in both texts.
  const paragraph =
    'Чтобы открыть свойства слоя, щёлкните по нему правой кнопкой мыши и выберите пункт «Свойства» в контекстном меню. ' +
    'Окно покажет имя слоя, его размеры и режим наложения. ';
  const repeated = (chars: number) => paragraph.repeat(Math.ceil(chars / paragraph.length));
  const timed = (text: string) => {
    const idx = new MemoryIndex<string>();
    idx.add('copy', text);
    const started = performance.now();
    const r = idx.check(text);
    return { r, ms: performance.now() - started };
  };

  it('aligns repeated phrases without pairing every occurrence with every other (50 000 characters well under 3 s)', () => {
    const { r, ms } = timed(repeated(50_000));
    expect(r.uniqueness).toBe(0);
    expect(r.spans).toHaveLength(1);
    expect(ms).toBeLessThan(3000);
  });

  it('checks 500 000 characters of repeated paragraphs against an identical copy in seconds', { timeout: 30_000 }, () => {
    const { r, ms } = timed(repeated(500_000));
    expect(r.uniqueness).toBe(0);
    expect(ms).toBeLessThan(10_000);
  });
});

describe('candidates', () => {
  const o = { maxPostings: 4, minShared: 2, minChain: 2, chainWords: 60, chainSlack: 20, maxCandidates: 10 };
  // s0 shares hashes 2 and 3 close together on one diagonal; s1 shares 2 and 4 far apart.
  const postings = [
    ...Array.from({ length: 5 }, (_, i) => ({ hash: 1n, source: `s${i}`, checkPosition: 0, position: 0 })),
    { hash: 2n, source: 's0', checkPosition: 100, position: 500 },
    { hash: 3n, source: 's0', checkPosition: 110, position: 512 },
    { hash: 2n, source: 's1', checkPosition: 100, position: 40 },
    { hash: 4n, source: 's1', checkPosition: 900, position: 41 },
  ];

  it('skips hashes stored for too many texts and needs enough shared hashes', () => {
    expect(selectCandidates(postings, o)).toEqual(['s0']);
    expect(selectCandidates(postings, { ...o, minShared: 3 })).toEqual([]);
    expect(selectCandidates(postings, { ...o, minChain: 3 })).toEqual([]);
  });

  it('needs two shared hashes near each other on one diagonal', () => {
    // With hash 1 counted (no longer too common), s1 has hashes 1 (0,0) and 2 (100,40): too far off the diagonal.
    expect(selectCandidates(postings, { ...o, maxPostings: 10 })).toEqual(['s0']);
    expect(selectCandidates(postings, { ...o, maxPostings: 10, chainWords: 1000, chainSlack: 1000 })).toEqual(['s0', 's1']);
    expect(selectCandidates(postings, { ...o, maxPostings: 10, chainWords: 1000, chainSlack: 1000, maxCandidates: 1 })).toEqual(['s0']);
  });
});

describe('spans', () => {
  it('joins neighbouring covered words over spaces and punctuation and takes in closing punctuation and quotes', () => {
    const text = 'Он сказал: «Мир велик». Потом ушёл.';
    const a = prepareText(text);
    const covered = new Uint8Array(a.codes.length);
    covered[2] = covered[3] = 1; // мир велик
    expect(spansOf(text, a, covered).map(([s, e]) => text.slice(s, e))).toEqual(['«Мир велик».']);
    covered[4] = 1; // потом
    expect(spansOf(text, a, covered).map(([s, e]) => text.slice(s, e))).toEqual(['«Мир велик». Потом']);
  });
});

describe('plain text of a publication', () => {
  it('strips tags, decodes entities and keeps blocks apart', () => {
    expect(publicationPlainText('<p>Первый&nbsp;абзац &laquo;цитата&raquo;</p><p>Второй<br>строка &#1046; &#x416;</p><script>x()</script>')).toBe(
      'Первый\u00A0абзац «цитата»\nВторой\nстрока Ж Ж',
    );
    expect(publicationPlainText('Просто текст & ещё')).toBe('Просто текст & ещё');
  });
});
