import { z } from 'zod';
import { moneyField } from '../common/money.ts';
import { Messages } from '../common/messages.ts';
import { idField } from '../common/bounds.ts';
import { dataAnswer, listAnswer, messageAnswer } from '../common/answers.ts';

// Publication prices ('Цены публикаций', spec 03 §2, §3): a price per publication subtype and
// number of authors. Money is integer rubles.

export const PriceMessages = {
  title: 'Цены публикаций',
  saved: 'Успешно сохранено!',
  deleted: 'Успешно удалено!',
  // Texts the spec does not give; ours, in the same voice.
  notFound: 'Цена не найдена',
  notPublicationSubtype: 'Выберите тип публикации',
  duplicate: 'Цена для этого типа и количества авторов уже задана',
  authorsMin: 'Не меньше 1 автора',
  authorsMax: 'Не больше 20 авторов',
  priceInteger: 'Цена — целое число рублей',
  priceMin: 'Цена не может быть отрицательной',
  inUse: 'Нельзя удалить: цена указана в публикациях',
} as const;

export const MAX_AUTHORS = 20;

/** A required integer from a number or a numeric string; empty is 'Обязательное поле'. */
const requiredInt = (intMessage: string, min: number, minMessage: string, max: number, maxMessage: string) =>
  z.preprocess(
    (v) => (v === '' || v === null ? undefined : typeof v === 'string' ? Number(v.trim()) : v),
    z
      .number({ error: (issue) => (issue.input === undefined ? Messages.fieldRequired : intMessage) })
      .int({ error: intMessage })
      .min(min, { error: minMessage })
      .max(max, { error: maxMessage }),
  );

/** Save: dict_service_subtype_id, authors_num (1..20), price (integer rubles, 0 or more). */
export const priceBody = z.object({
  dict_service_subtype_id: idField(Messages.fieldRequired),
  authors_num: requiredInt('Введите целое число', 1, PriceMessages.authorsMin, MAX_AUTHORS, PriceMessages.authorsMax),
  /** Kopecks (whole rubles). */
  price: moneyField({
    wholeRubles: PriceMessages.priceInteger,
    min: { kopecks: 0, message: PriceMessages.priceMin },
    max: { kopecks: 100_000_000_00, message: 'Слишком большая цена' },
  }),
});
export type PriceBody = z.infer<typeof priceBody>;

/** GET /api/publication-price?dict_service_subtype_id= */
export const priceListQuery = z.object({ dict_service_subtype_id: idField().optional() });

export const publicationPriceSchema = z.object({
  id: z.number().int(),
  dict_service_subtype_id: z.number().int(),
  subtype: z.object({ id: z.number().int(), fdv: z.string() }).nullable(),
  authors_num: z.number().int(),
  price: z.number(),
});
export type PublicationPrice = z.output<typeof publicationPriceSchema>;

/** GET /api/publication-price: every price row (no pages). */
export const pricesAnswer = listAnswer(publicationPriceSchema);
/** POST (201) and PUT /api/publication-price[/{id}]: the saved price and the notice. */
export const priceSavedAnswer = dataAnswer(publicationPriceSchema).extend({ message: z.string() });
/** DELETE /api/publication-price/{id}. */
export const priceDeletedAnswer = messageAnswer;

/**
 * The price of a publication of this subtype with this many authors: the row for exactly that
 * count, else the row with the largest count below it (a fourth author costs what the table's
 * last row says). Null when the subtype has no price for so few authors.
 */
export function priceFor<T extends Pick<PublicationPrice, 'dict_service_subtype_id' | 'authors_num' | 'price'>>(
  prices: readonly T[],
  subtypeId: number,
  authorsCount: number,
): T | null {
  let best: T | null = null;
  for (const p of prices) {
    if (p.dict_service_subtype_id !== subtypeId || p.authors_num > authorsCount) continue;
    if (!best || p.authors_num > best.authors_num) best = p;
  }
  return best;
}
