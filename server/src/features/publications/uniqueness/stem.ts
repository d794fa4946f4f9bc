// The Russian Snowball stemmer (snowball-stemmers) with a cache, and the function words of Russian.
import snowball from 'snowball-stemmers';

const russian = snowball.newStemmer('russian');
const english = snowball.newStemmer('english');
const cache = new Map<string, string>();
const CACHE_LIMIT = 200_000;
const CYRILLIC = /\p{Script=Cyrillic}/u;
const LATIN = /^[a-z]+$/;

/** The stem of a normalised (lower-case, ё→е) word: Russian Snowball for Cyrillic, English for Latin words. */
export function stem(word: string): string {
  let s = cache.get(word);
  if (s !== undefined) return s;
  if (CYRILLIC.test(word)) s = russian.stem(word);
  else if (LATIN.test(word)) s = english.stem(word);
  else s = word;
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(word, s);
  return s;
}

/**
 * Russian function words (after ё→е): prepositions, conjunctions, particles, pronouns and the most
 * frequent auxiliary words. They carry the style of a text rather than its content, so a rewrite that
 * replaces content words with synonyms keeps most of them (Stamatatos 2011).
 */
const STOP_WORDS = new Set(
  `а без более бы был была были было быть в вам вас весь во вот все всего всех вы где да даже для до его ее
  если есть еще же за здесь и из или им их к как ко когда кто ли либо между меня мне может можно мы на над
  надо наш не него нее нет ни них но ну о об однако он она они оно от очень по под после при про с со так
  также такой там те тем то того тоже той только том ты у уже хотя чего чей чем что чтобы чье чья эта эти
  это этого этой этом этот я ею ей ему нам нас себя себе свой своя свое свои своих своим сам сама само
  сами самый тот та тех теми тому той которая которые который которого которой котором которых которым
  которыми которую каждый каждая каждое любой другой другие иной весьма лишь именно ведь вроде будто
  словно поэтому потому затем тогда теперь сейчас всегда иногда уж вдоль вместо вне внутри возле около
  перед через сквозь среди ради кроме благодаря согласно вопреки навстречу ввиду вследствие насчет
  будет будут буду будем будете является являются являлся мой моя мое мои твой твоя твое твои ваш ваша
  ваше ваши наша наше наши его ее их сюда туда оттуда отсюда куда откуда почему зачем сколько столько
  нибудь либо кое то-то нельзя бывает стал стала стали стало зато причем притом итак значит например`
    .split(/\s+/)
    .filter(Boolean),
);

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
}
