// Article texts for the publication journeys: Russian-looking, deterministic, and different per seed,
// so the uniqueness check finds exactly what a journey copies and nothing else.

const WORDS = [
  'проектная',
  'деятельность',
  'младших',
  'школьников',
  'развивает',
  'самостоятельность',
  'учитель',
  'организует',
  'исследование',
  'природы',
  'родного',
  'края',
  'дети',
  'собирают',
  'сведения',
  'обсуждают',
  'результаты',
  'представляют',
  'выводы',
  'классу',
  'методика',
  'опирается',
  'наблюдение',
  'эксперимент',
  'игровые',
  'приёмы',
  'формируют',
  'интерес',
  'чтению',
  'математике',
  'окружающему',
  'миру',
  'занятие',
];

/** A text of at least `min` characters of nine-word sentences; `seed` makes texts differ. */
export function articleText(seed: number, min: number): string {
  const out: string[] = [];
  let n = seed * 7919 + 13;
  let length = 0;
  while (length < min) {
    const sentence: string[] = [];
    for (let i = 0; i < 9; i++) {
      n = (n * 1103515245 + 12345) % 2147483648;
      // The high bits: the low bits of this generator repeat with a short period (a text of one word).
      sentence.push(WORDS[Math.floor(n / 65536) % WORDS.length] ?? '');
    }
    const s = `${sentence.join(' ')}.`;
    out.push(s.charAt(0).toUpperCase() + s.slice(1));
    length += s.length + 1;
  }
  return out.join(' ');
}
