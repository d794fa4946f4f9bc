import { z } from 'zod';
import { BoundMessages, filterText, flagField, hasNul, idField, idListField, textField } from '../common/bounds.ts';
import { KnownIds, PublicationStatus, publicationStatusLabels } from '../common/codes.ts';
import { Messages } from '../common/messages.ts';
import { pageQuery, sortParam } from '../common/pagination.ts';
import { plural } from '../common/plural.ts';
import { publicationPlainText } from './plain-text.ts';
import { dataAnswer, isoTimestamp, listAnswer, messageAnswer, pageAnswer } from '../common/answers.ts';

// Publications (spec 03 §1-9; spec 02 §2 publication subtypes; spec 01 publication entry form).

export { PublicationStatus };
export type PublicationStatusCode = (typeof PublicationStatus)[keyof typeof PublicationStatus];

export const PublicationMessages = {
  // The spec's texts, word for word.
  rejectReason: 'Укажите причину отклонения!',
  chooseAuthor: 'Выберите автора из выпадающего списка!',
  enterFioFirst: 'Сначала введите ФИО!',
  checkFileOnly: 'Проверка публикации с файлом возможна только при подстановке текста файла в отведённую форму. Проверка не будет доступна до сохранения!',
  internetTooShort: 'Минимум должно быть 3200 символов чистого текста!',
  tooManyCharacters: 'Слишком много символов!',
  required: Messages.required,
  saved: 'Успешно сохранено!',
  statusChanged: 'Статус публикации успешно изменён!',
  approved: 'Публикация одобрена!',
  authorAdded: 'Автор успешно добавлен',
  typeAndReleaseUpdated: 'Тип и выпуск успешно обнолвены!',
  published: 'Успешно опубликовано!',
  deleted: 'Успешно удалено!',
  acceptedPublished: 'Одобренные публикации успешно опубликованы!',
  selectedUpdated: 'Выбранные публикации успешно обновлены!',
  willBeChecked: 'Публикация будет проверена антиплагиатом в течение часа',
  // Ours, where the spec gives no text.
  notFound: 'Публикация не найдена',
  chooseCategory: 'Выберите рубрику',
  chooseRelease: 'Выберите выпуск',
  chooseType: 'Выберите тип публикации',
  enterTitle: 'Введите название',
  enterText: 'Введите текст публикации',
  attachFile: 'Прикрепите файл публикации',
  chooseAuthorsNum: 'Укажите количество авторов',
  chooseService: 'Выберите услугу публикации',
  serviceNotPublication: 'Эта услуга не принимает публикации',
  entryNotPublication: 'Заявка не относится к услуге публикации',
  entryHasPublication: 'К этой заявке уже прикреплена публикация',
  entryNotYours: 'Заявка не найдена среди ваших заявок',
  packageOneAuthor: 'Пакет услуг включает публикацию одного автора. Статью с соавторами подайте отдельной публикацией',
  addArticle: 'Добавить статью',
  paidByEntry: (number: string) => `Оплачена по заявке № ${number}`,
  releaseNotOfSubtype: 'Выпуск не относится к этому типу публикаций',
  releaseHidden: 'Выпуск закрыт для приёма публикаций',
  noPrice: 'Для такого количества авторов цена не задана',
  tooManyAuthors: (max: number) => `Дополнительных авторов не больше ${max}`,
  authorAlready: 'Этот автор уже добавлен',
  notEditable: 'Публикацию можно изменить только пока она ожидает проверки или требует доработок',
  onlyRejectedDelete: 'Удалить можно только отклонённую публикацию',
  transitionRefused: (label: string) => `Действие недоступно для публикации в статусе «${label}»`,
  notJournal: 'Публикация не предназначена для журнала',
  notInternet: 'На сайт публикуются только интернет-публикации',
  cmsOff: 'Публикация на сайт отключена: сайт журнала не настроен',
  /** The publication's rubric names no category of the journal site (or there is no rubric). */
  rubricWithoutCategory: (rubric: string | null) => (rubric ? `Для рубрики «${rubric}» не указана категория сайта` : 'У публикации не выбрана рубрика'),
  /** The rubric's category is not one of the journal site's (Joomla would make a new category titled with the number). */
  rubricUnknownCategory: (rubric: string, catid: number) =>
    `На сайте журнала нет категории ${catid}, указанной у рубрики «${rubric}»: выберите в рубрике существующую категорию сайта`,
  cmsFailed: 'Сайт не принял публикацию, попробуйте позже',
  nothingToPublish: 'Нет одобренных интернет-публикаций',
  noText: 'У публикации нет текста для проверки',
  checkDone: 'Проверка уникальности завершена',
  checkQueued: 'Публикация уже в очереди на проверку уникальности',
  checkRunning: 'Публикация уже проверяется на уникальность',
  checkPostponed: 'Проверки уникальности сейчас заняты: публикация поставлена в очередь',
  tooManyChecks: (n: number) =>
    `На проверке уникальности уже ${n} ${plural(n, 'ваша публикация', 'ваши публикации', 'ваших публикаций')}. Дождитесь результата и отправьте текст снова`,
  /** A save refused: the author saved the publication too often while its uniqueness check waits or runs. */
  savedTooOftenWhileChecked: 'Публикация ещё проверяется на уникальность, а изменения сохранялись слишком часто. Сохраните их через минуту',
  unknownPublications: 'Некоторые публикации не найдены',
  additionalFilesOnCreate: 'Дополнительные файлы прикладываются только при создании',
  // An unpaid publication is approved, sent to the journal or put into a release only when the operator confirms it (issue 28).
  unpaid: 'Не оплачена',
  paid: 'Оплачена',
  confirmUnpaidApprove: 'Публикация не оплачена. Подтвердите одобрение без оплаты.',
  confirmUnpaidJournal: 'Публикация не оплачена. Подтвердите отправку в журнал без оплаты.',
  confirmUnpaidRelease: (n: number) => `${n === 1 ? 'Публикация не оплачена' : `Не оплачено публикаций: ${n}`}. Подтвердите добавление в выпуск без оплаты.`,
  skippedUnpaid: (n: number) => `Пропущено неоплаченных: ${n}`,
  nothingPaidToPublish: (n: number) => `Нет оплаченных одобренных интернет-публикаций. Пропущено неоплаченных: ${n}`,
  // The publication a client already paid for (a package's or an entry without its article).
  slotUsed: (slot: PublicationSlotLike) => `${slotCoverText(slot)}. Новая заявка не создана`,
  /** Said by the answer (`made`) and, before sending, by the form. */
  slotTooFewAuthors: (slot: PublicationSlotLike, authorsNum: number, made: boolean) =>
    `${slotCoverText(slot)}, а авторов ${authorsNum}: поэтому ${made ? 'создана новая заявка' : 'будет создана новая заявка'} по цене для ${authorsNum} ${authorsGenitive(authorsNum)}, её нужно ${made ? '' : 'будет '}оплатить`,
} as const;

/** What a slot is, as far as its wording and choice go. */
export interface PublicationSlotLike {
  number: string;
  package_title: string | null;
  is_paid: boolean;
  authors_covered: number | null;
  service: { id: number; dict_subtype_id: number | null };
}

/** "1 автора", "2 авторов", "21 автора" (after «для», «публикация»). */
const authorsGenitive = (n: number) => plural(n, 'автора', 'авторов', 'авторов');

/** What the slot covers, in words: «Заявка № 2611-0004 (Пакет «…») включает публикацию 1 автора без доплаты». */
export function slotCoverText(slot: PublicationSlotLike): string {
  // Package titles often say «Пакет «…»» themselves.
  const pkg = slot.package_title && (/^пакет/i.test(slot.package_title) ? slot.package_title : `пакет «${slot.package_title}»`);
  const where = pkg ? `Заявка № ${slot.number} (${pkg})` : `Заявка № ${slot.number}`;
  if (slot.authors_covered === null)
    return slot.is_paid ? `${where} оплачена и включает публикацию` : `${where} ещё не оплачена: публикация будет добавлена к ней`;
  return `${where} включает публикацию ${slot.authors_covered} ${authorsGenitive(slot.authors_covered)}${slot.is_paid || slot.package_title ? ' без доплаты' : ''}`;
}

/** Does the slot take a publication of this many authors without a new entry? */
export const slotCovers = (slot: Pick<PublicationSlotLike, 'authors_covered'>, authorsNum: number) =>
  slot.authors_covered === null || authorsNum <= slot.authors_covered;

/** Is the slot an entry of this publication service (or of another service of its subtype)? */
export const slotFits = (slot: Pick<PublicationSlotLike, 'service'>, service: { id: number; dict_subtype_id: number | null }) =>
  slot.service.id === service.id || (service.dict_subtype_id !== null && slot.service.dict_subtype_id === service.dict_subtype_id);

/**
 * The slot a new publication goes to (issue 28): the first fitting slot that covers its authors
 * (`use`); when the fitting ones cover fewer authors, a new entry is made and `tooSmall` says which
 * slot was passed over (the form and the answer say why it costs money). Slots come best first
 * (paid, then a package's, then the oldest).
 */
export function chooseSlot<T extends PublicationSlotLike>(
  slots: readonly T[],
  service: { id: number; dict_subtype_id: number | null },
  authorsNum: number,
): { use: T | null; tooSmall: T | null } {
  const fitting = slots.filter((s) => slotFits(s, service));
  const use = fitting.find((s) => slotCovers(s, authorsNum)) ?? null;
  return { use, tooSmall: use ? null : (fitting[0] ?? null) };
}

/** A uniqueness check not finished yet: waiting for a worker, or being run. */
export const uniquenessStateSchema = z.enum(['queued', 'running']);
export type UniquenessState = z.output<typeof uniquenessStateSchema>;
export const uniquenessStateLabels: Record<UniquenessState, string> = { queued: 'в очереди', running: 'проверяется' };

/** Badge colors (Mantine) by status. Rejected cards are also shown faded. */
export const publicationStatusColors: Record<number, string> = {
  0: 'red',
  1: 'yellow',
  2: 'teal',
  3: 'orange',
  4: 'blue',
  5: 'violet',
};
export { publicationStatusLabels };

export const PublicationType = { article: 1, methodological: 2 } as const;
export const publicationTypeLabels: Record<number, string> = { 1: 'Статья', 2: 'Методическая разработка' };

/** Spec 03 §9. */
export const INTERNET_MIN_PLAIN = 3200;
export const INTERNET_MAX_FORMATTED = 32500;
export const UNIQUENESS_THRESHOLD = 70;
/** A package buys the publication of this many authors (its share of the package is that price). */
export const PACKAGE_PUBLICATION_AUTHORS = 1;
export const INTERNET_SUBTYPE_ID = KnownIds.internetPublicationSubtype;
/** Display cuts: title 34, excerpt 300, short url 40, a matching url from character 8 for 20. */
export const DisplayCuts = { title: 34, excerpt: 300, shortUrl: 40, matchUrlFrom: 8, matchUrlLength: 20 } as const;
/** Stored (formatted) text limit for non-internet publications: a column bound, not a spec rule. */
export const PUBLICATION_TEXT_MAX = 500_000;
export const PUBLICATION_TITLE_MAX = 500;
export const AUTHOR_FIO_MAX = 255;

export { publicationPlainText };

export const isInternetSubtype = (subtypeId: number | null | undefined) => subtypeId === INTERNET_SUBTYPE_ID;

/**
 * Internet publication text rule (spec 03 §5): at least 3200 characters of plain text (markup
 * stripped) and at most 32500 characters formatted (the HTML as saved). Null when the text fits.
 */
export function internetTextProblem(html: string): string | null {
  if (html.length > INTERNET_MAX_FORMATTED) return PublicationMessages.tooManyCharacters;
  if (publicationPlainText(html).length < INTERNET_MIN_PLAIN) return PublicationMessages.internetTooShort;
  return null;
}

/** Uniqueness display (spec 03 §4): green above 70 percent, otherwise red. */
export function uniquenessColor(percent: number): 'green' | 'red' {
  return percent > UNIQUENESS_THRESHOLD ? 'green' : 'red';
}

/**
 * Operator actions and user edits: the status each leads to and the statuses it may start from.
 * The server refuses any other move (docs/decisions/014-publication-transitions.md).
 */
export const PUBLICATION_TRANSITIONS = {
  accept: { to: PublicationStatus.approved, from: [PublicationStatus.pending, PublicationStatus.rework, PublicationStatus.rejected] },
  decline: { to: PublicationStatus.rework, from: [PublicationStatus.pending, PublicationStatus.approved, PublicationStatus.rejected] },
  reject: { to: PublicationStatus.rejected, from: [PublicationStatus.pending, PublicationStatus.approved, PublicationStatus.rework] },
  sendToJournal: { to: PublicationStatus.journal, from: [PublicationStatus.pending, PublicationStatus.approved] },
  publish: { to: PublicationStatus.published, from: [PublicationStatus.approved] },
  /** A user's save of a publication that needs rework (or is still pending) puts it back in the queue. */
  resubmit: { to: PublicationStatus.pending, from: [PublicationStatus.pending, PublicationStatus.rework] },
} as const satisfies Record<string, { to: number; from: readonly number[] }>;
export type PublicationAction = keyof typeof PUBLICATION_TRANSITIONS;

export function canTransition(action: PublicationAction, from: number): boolean {
  return (PUBLICATION_TRANSITIONS[action].from as readonly number[]).includes(from);
}

/** A user may edit their publication while it waits for the check or needs rework. Operators: any status. */
export const userMayEdit = (status: number) => canTransition('resubmit', status);
/** A user may delete only their rejected publications (spec 03 §6). */
export const userMayDelete = (status: number) => status === PublicationStatus.rejected;
/** The manager comment is shown to the owner when the publication is declined or rejected. */
export const ownerSeesComment = (status: number) => status === PublicationStatus.rejected || status === PublicationStatus.rework;

const id = z.number().int();

/** A co-author of a publication. */
export const publicationAuthorSchema = z.object({
  id,
  user_id: id.nullable(),
  fio: z.string(),
  /** A linked account that has not accepted the invitation yet (co-authors.ts). */
  pending: z.boolean(),
});
export type PublicationAuthor = z.output<typeof publicationAuthorSchema>;

/** The stored publication a match was copied from (told to operators, and to its own creator). */
export const publicationMatchSourceSchema = z.object({
  id,
  title: z.string(),
  /** The number of its entry ('2611-0004'), when it has one. */
  number: z.string().nullable(),
  /** Its first author. */
  author: z.string(),
  status: z.number().int(),
  statusLabel: z.string(),
});
export type PublicationMatchSource = z.output<typeof publicationMatchSourceSchema>;

/** Character spans [start, end) of publicationPlainText(text). */
const spansSchema = z.array(z.tuple([z.number().int(), z.number().int()]));

export const publicationMatchSchema = z.object({
  /** The source's address on the site ('' for a publication stored in the cabinet only). */
  url: z.string(),
  /** The publication in the cabinet it was copied from; null when gone or not for the asker's eyes. */
  source: publicationMatchSourceSchema.nullable(),
  percent: z.number(),
  /** Word indexes of the checked text found in this source. */
  highlight: z.array(z.number().int()),
  /** Character spans [start, end) of publicationPlainText(text). */
  spans: spansSchema,
});
export type PublicationMatch = z.output<typeof publicationMatchSchema>;

export const publicationEntryRefSchema = z.object({
  id,
  number: z.string(),
  /** Entry status 1 not paid, 2 paid, 3 done. */
  status: z.number().int(),
  /** isPaidStatus(status). */
  is_paid: z.boolean(),
  price: z.number(),
  user: z.object({ id, fio: z.string() }),
});
export type PublicationEntryRef = z.output<typeof publicationEntryRefSchema>;

export const publicationFileRefSchema = z.object({
  id,
  name: z.string(),
  /** Authorised download address. */
  url: z.string(),
});
export type PublicationFileRef = z.output<typeof publicationFileRefSchema>;

/**
 * GET /api/publication item and GET /api/publication/{id} (spec 03 §3 Publication): one shape, the
 * list's item has an excerpt for text and empty additionalFiles, matches, highlight and spans. Money in rubles.
 */
export const publicationSchema = z.object({
  id,
  title: z.string(),
  /** Full text (HTML) on GET /{id}; in the list the first 300 plain characters. */
  text: z.string().nullable(),
  file: publicationFileRefSchema.nullable(),
  /** Extra files attached on create (GET /{id} only; [] in the list). */
  additionalFiles: z.array(publicationFileRefSchema),
  url: z.string().nullable(),
  url_contents: z.string().nullable(),
  status: z.literal(Object.values(PublicationStatus)),
  statusLabel: z.string(),
  statusColor: z.string(),
  entries: z.array(publicationEntryRefSchema),
  entry: publicationEntryRefSchema.nullable(),
  /** Some live entry of the publication is paid (isPaidStatus); the operator confirms any move of an unpaid one. */
  is_paid: z.boolean(),
  service: z.object({ id, title: z.string(), dict_subtype_id: id.nullable() }).nullable(),
  /** Does the subtype take a file instead of a text? */
  publication_has_file: z.boolean(),
  release: z.object({ id, title: z.string() }).nullable(),
  release_id: id.nullable(),
  is_journal: z.boolean(),
  /** To the owner only when rejected or needing rework; operators always. */
  manager_comment: z.string().nullable(),
  /** Percent of original text, null until checked. */
  uniqueness: z.number().nullable(),
  uniqueness_checked_at: isoTimestamp.nullable(),
  /** The uniqueness check waits in the queue or runs now (the percent shown is then not current); null otherwise. */
  uniqueness_state: uniquenessStateSchema.nullable(),
  matches: z.array(publicationMatchSchema),
  highlight: z.array(z.number().int()),
  spans: spansSchema,
  dict_category_id: id.nullable(),
  type: z.number().int().nullable(),
  price_id: id.nullable(),
  /** Number of authors the price is for (the creator plus up to authors_num - 1 more). */
  authors_num: z.number().int().nullable(),
  price: z.number().nullable(),
  authors: z.array(publicationAuthorSchema),
  created_by: id,
  created_at: isoTimestamp,
  created_at_formatted: z.string(),
  /** What the asking user may do now. */
  can_edit: z.boolean(),
  can_delete: z.boolean(),
});
export type Publication = z.output<typeof publicationSchema>;

/** GET /api/publication: a page of publications. */
export const publicationPageAnswer = pageAnswer(publicationSchema);
/** GET /api/publication/{id}. */
export const publicationAnswer = dataAnswer(publicationSchema);

/**
 * GET /api/publication/{id}/uniqueness-state: what the cabinet reads every few seconds while a check
 * waits or runs, without the text (a 480 000-character text read back every 3 s for each open
 * publication was what slowed the others' saves during the checks; issue 29).
 */
export const publicationCheckStateSchema = publicationSchema.pick({ id: true, uniqueness: true, uniqueness_checked_at: true, uniqueness_state: true });
export type PublicationCheckState = z.output<typeof publicationCheckStateSchema>;
export const publicationCheckStateAnswer = dataAnswer(publicationCheckStateSchema);

const boolish = flagField();

/** The sorts of the publication list: date of creation, title, status. Without one: newest first. */
export const PUBLICATION_SORTS = ['created_at', 'title', 'status'] as const;
export type PublicationSortKey = (typeof PUBLICATION_SORTS)[number];

/** GET /api/publication filters (spec 03 §7). userId and fio are for operators (ignored for users). */
export const publicationListQuery = pageQuery.extend({
  sort: sortParam(PUBLICATION_SORTS),
  title: filterText(200).optional(),
  entryNumber: filterText(32).optional(),
  fio: filterText(200).optional(),
  serviceId: idField().optional(),
  status: z.coerce.number().int().min(0).max(5).optional(),
  isPaid: boolish.optional(),
  isWithoutRelease: boolish.optional(),
  release_id: idField().optional(),
  userId: idField().optional(),
});
export type PublicationListQuery = z.input<typeof publicationListQuery>;

/** A co-author: a user picked from the dropdown (user_id) or a typed name. */
export const publicationAuthorInput = z.object({
  user_id: idField(PublicationMessages.chooseAuthor).nullish(),
  fio: z
    .string({ error: PublicationMessages.enterFioFirst })
    .trim()
    .min(1, { error: PublicationMessages.enterFioFirst })
    .max(AUTHOR_FIO_MAX, { error: Messages.maxLength(AUTHOR_FIO_MAX) })
    .refine((s) => !hasNul(s), { error: BoundMessages.nul }),
});
export type PublicationAuthorInput = z.input<typeof publicationAuthorInput>;

/** Multipart sends the list as a JSON string; a JSON body as an array. */
const authorsField = z
  .preprocess((v) => {
    if (typeof v !== 'string') return v;
    if (v.trim() === '') return [];
    try {
      return JSON.parse(v);
    } catch {
      return v;
    }
  }, z.array(publicationAuthorInput).max(50))
  .default([]);

const optionalId = (message: string) => z.preprocess((v) => (v === '' || v === 'null' || v === null ? undefined : v), idField(message).optional());

/**
 * POST /api/publication (create) and POST /api/publication/{id} with _method=PUT (update); multipart
 * with `file` (pdf/jpg/png, at most 10 MB), `additionalFiles[]` (create only) and these fields, or JSON.
 * Create names the entry (`entry_id`, an entry of a publication service without a publication) or the
 * service (`service_id`, or `dict_subtype_id` for the subtype's publication service); the entry is then
 * created at the price of publication_prices for the subtype and `authors_num`.
 * `authors`: the co-authors besides the creator, at most authors_num - 1.
 */
export const savePublicationBody = z.object({
  entry_id: optionalId(BoundMessages.id),
  service_id: optionalId(PublicationMessages.chooseService),
  dict_subtype_id: optionalId(PublicationMessages.chooseService),
  title: z
    .string({ error: PublicationMessages.enterTitle })
    .trim()
    .min(1, { error: PublicationMessages.enterTitle })
    .max(PUBLICATION_TITLE_MAX, { error: Messages.maxLength(PUBLICATION_TITLE_MAX) })
    .refine((s) => !hasNul(s), { error: BoundMessages.nul }),
  text: textField(PUBLICATION_TEXT_MAX).nullish(),
  dict_category_id: optionalId(PublicationMessages.chooseCategory),
  release_id: optionalId(PublicationMessages.chooseRelease),
  type: z.preprocess((v) => (v === '' || v === 'null' || v === null ? undefined : v), z.coerce.number().int().min(1).max(2).optional()),
  authors_num: z.preprocess(
    (v) => (v === '' || v === null ? undefined : v),
    z.coerce
      .number({ error: PublicationMessages.chooseAuthorsNum })
      .int({ error: PublicationMessages.chooseAuthorsNum })
      .min(1, { error: PublicationMessages.chooseAuthorsNum })
      .max(50)
      .optional(),
  ),
  authors: authorsField,
  /** Operators only, on create: the client the publication (and its new entry) is made for; the operator by default. */
  user_id: optionalId(PublicationMessages.chooseAuthor),
  /** Operators only: the journal flag and links of the published text. */
  is_journal: boolish.optional(),
  url: z.string().trim().max(500).nullish(),
  url_contents: z.string().trim().max(500).nullish(),
  /** Operators only. */
  manager_comment: textField(5000).nullish(),
  /** 1: drop the stored main file (update). */
  remove_file: boolish.optional(),
});
export type SavePublicationBody = z.input<typeof savePublicationBody>;

/** The answer of create and update: the publication and the info text ('будет проверена антиплагиатом в течение часа'). */
export const savePublicationAnswer = dataAnswer(publicationSchema).extend({
  message: z.string(),
  info: z.string().nullable(),
  /** On create: which entry the publication went to when the client had one already (slotUsed), or why a new one is to be paid (slotTooFewAuthors). */
  entry_note: z.string().nullable(),
});
export type SavePublicationAnswer = z.output<typeof savePublicationAnswer>;

/** POST /api/publication/{id}/decline: the comment for the author is optional. */
export const declineBody = z.object({ manager_comment: textField(5000).nullish() });

/** POST /api/publication/{id}/reject: a comment is required unless the rejection is silent (no notification). */
export const rejectBody = z.object({ manager_comment: textField(5000).nullish(), is_silent: boolish.optional() }).superRefine((b, ctx) => {
  if (!b.is_silent && !(b.manager_comment ?? '').trim()) ctx.addIssue({ code: 'custom', path: ['manager_comment'], message: PublicationMessages.rejectReason });
});
export type RejectBody = z.input<typeof rejectBody>;

/** POST /api/publication/{id}/accept and …/send-to-journal: `confirm_unpaid` lets the operator move an unpaid publication. */
export const unpaidConfirmBody = z.object({ confirm_unpaid: flagField().optional() });
export type UnpaidConfirmBody = z.input<typeof unpaidConfirmBody>;

/** POST /api/publication/add-to-release (`confirm_unpaid`: unpaid ones among them go in too). */
export const addToReleaseBody = z.object({
  ids: idListField().refine((l) => l.length > 0, { error: Messages.fieldRequired }),
  release_id: idField(PublicationMessages.chooseRelease),
  confirm_unpaid: flagField().optional(),
});

/** POST /api/publication/publish-accepted: unpaid approved ones are skipped unless `include_unpaid`. */
export const publishAcceptedBody = z.object({ include_unpaid: flagField().optional() });
export type AddToReleaseBody = z.input<typeof addToReleaseBody>;

/** Status-change answers (accept, decline, reject, send-to-journal, check-uniqueness, add-author): the message and the publication as it is now. */
export const publicationActionAnswer = dataAnswer(publicationSchema).extend({ message: z.string() });
export type PublicationActionAnswer = z.output<typeof publicationActionAnswer>;

/** POST /api/publication/publish-accepted answer. */
export const publishAcceptedAnswer = z.object({
  message: z.string(),
  published: z.array(id),
  failed: z.array(z.object({ id, message: z.string() })),
  /** Approved ones left as they are because their entry is unpaid (the message counts them). */
  skipped_unpaid: z.array(id),
});
export type PublishAcceptedAnswer = z.output<typeof publishAcceptedAnswer>;

/** POST /api/publication/add-to-release: the publications put into the release. */
export const addedToReleaseAnswer = z.object({ message: z.string(), ids: z.array(id) });
export type AddedToReleaseAnswer = z.output<typeof addedToReleaseAnswer>;

/** Cut a text for display: the first `n` characters and an ellipsis. */
export function cut(text: string, n: number): string {
  return text.length > n ? `${text.slice(0, n)}…` : text;
}

/** GET /api/publication/authors?fio=: people to name as co-authors (id and full name). */
export const authorOptionSchema = z.object({ id: z.number().int(), fio: z.string() });
export const authorOptionsAnswer = listAnswer(authorOptionSchema);
/**
 * GET /api/publication/slots: the client's entries of publication services with no live publication
 * (a package's publication, or a paid entry whose article was deleted): where a new publication goes
 * before any new entry is made. Operators name the client by `user_id`.
 */
export const publicationSlotSchema = z.object({
  entry_id: id,
  number: z.string(),
  service: z.object({ id, title: z.string(), dict_subtype_id: id.nullable() }),
  /** The package the entry was bought in, or null. */
  package_title: z.string().nullable(),
  is_paid: z.boolean(),
  /** Authors its payment covers: a package's publication is of one author; null: any (the entry takes the price for the number). */
  authors_covered: z.number().int().nullable(),
});
export type PublicationSlot = z.output<typeof publicationSlotSchema>;
export const publicationSlotsAnswer = listAnswer(publicationSlotSchema);
export const publicationSlotsQuery = z.object({ user_id: idField().optional() });

/** DELETE /api/publication/{id}. */
export const publicationDeletedAnswer = messageAnswer;
