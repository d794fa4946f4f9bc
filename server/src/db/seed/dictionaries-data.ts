import { EventId } from '@edu/domain/common/codes';
// Reference data seeded on every start (spec 01 §3, spec 02 §3, spec 03 §3). Ids are explicit and
// stable: the spec and the code rely on some of them (see KnownIds in domain/src/common/codes.ts).
import type {
  dictDocumentTypes,
  dictEvents,
  dictMacroses,
  dictMacrosCategories,
  dictProfiles,
  dictPublicationCategories,
  dictRegions,
  dictServiceSubtypes,
  dictServiceTypes,
  dictTemplateTypes,
  leadings,
} from '../schema/dictionaries.ts';

/** An insert row of a table with its id made required. */
type Seeded<T extends { $inferInsert: unknown }> = T['$inferInsert'] & { id: number };

export const serviceTypeIds = {
  conference: 1,
  webinar: 2,
  qualification: 3,
  retraining: 4,
  publication: 5,
  seminar: 6,
  masterClass: 7,
  roundTable: 8,
  olympiad: 9,
  forum: 10,
  contest: 11,
  internship: 12,
} as const;

export const serviceTypesData: Seeded<typeof dictServiceTypes>[] = [
  {
    id: 1,
    fdv: 'Конференции',
    dv: 'conference',
    points: 10,
    color: 'teal',
    icon: 'IconPresentation',
    description: 'Научно-практические конференции для педагогов и руководителей образовательных организаций с публикацией тезисов.',
  },
  {
    id: 2,
    fdv: 'Вебинары',
    dv: 'webinar',
    points: 5,
    color: 'indigo',
    icon: 'IconDeviceTv',
    description: 'Онлайн-занятия с экспертами по актуальным вопросам обучения и воспитания.',
  },
  {
    id: 3,
    fdv: 'Курсы повышения квалификации',
    dv: 'qualification',
    points: 30,
    color: 'blue',
    icon: 'IconSchool',
    is_contract_needed: true,
    description: 'Дополнительные профессиональные программы повышения квалификации с выдачей удостоверения установленного образца.',
  },
  {
    id: 4,
    fdv: 'Курсы профессиональной переподготовки',
    dv: 'retraining',
    points: 50,
    color: 'grape',
    icon: 'IconCertificate',
    is_contract_needed: true,
    description: 'Программы профессиональной переподготовки с выдачей диплома о новой квалификации.',
  },
  {
    id: 5,
    fdv: 'Публикации',
    dv: 'publication',
    points: 15,
    color: 'orange',
    icon: 'IconNews',
    is_publication: true,
    description: 'Публикация статей и методических разработок в сетевом издании и научно-методическом журнале.',
  },
  {
    id: 6,
    fdv: 'Семинары',
    dv: 'seminar',
    points: 8,
    color: 'cyan',
    icon: 'IconUsersGroup',
    description: 'Очные и дистанционные обучающие семинары по отдельным темам педагогической практики.',
  },
  {
    id: 7,
    fdv: 'Мастер-классы',
    dv: 'masterClass',
    points: 6,
    color: 'pink',
    icon: 'IconBrush',
    description: 'Практические занятия, на которых ведущие педагоги делятся приёмами и технологиями.',
  },
  {
    id: 8,
    fdv: 'Круглые столы',
    dv: 'roundTable',
    points: 5,
    color: 'lime',
    icon: 'IconMessages',
    description: 'Открытые обсуждения проблем образования с участием экспертов и практиков.',
  },
  {
    id: 9,
    fdv: 'Олимпиады',
    dv: 'olympiad',
    points: 7,
    color: 'yellow',
    icon: 'IconMedal',
    description: 'Профессиональные олимпиады для педагогов и предметные олимпиады для обучающихся.',
  },
  {
    id: 10,
    fdv: 'Форумы',
    dv: 'forum',
    points: 12,
    color: 'violet',
    icon: 'IconBuildingCommunity',
    description: 'Многодневные педагогические форумы с пленарными заседаниями и работой секций.',
  },
  {
    id: 11,
    fdv: 'Конкурсы',
    dv: 'contest',
    points: 10,
    color: 'red',
    icon: 'IconTrophy',
    description: 'Конкурсы профессионального мастерства педагогов и творческие конкурсы для обучающихся.',
  },
  {
    id: 12,
    fdv: 'Стажировки',
    dv: 'internship',
    points: 20,
    color: 'green',
    icon: 'IconBriefcase',
    description: 'Стажировки на базе ведущих образовательных организаций Санкт-Петербурга.',
  },
];

export const serviceSubtypeIds = {
  allRussianConference: 1,
  internationalConference: 2,
  cityConference: 3,
  journalPublication: 4,
  internetPublication: 5,
  proceedingsPublication: 6,
  practicalWebinar: 7,
  thematicWebinar: 8,
  qualification36: 9,
  qualification72: 10,
  qualification108: 11,
  retraining250: 12,
  retraining520: 13,
  teacherSeminar: 14,
  managerSeminar: 15,
  onlineMasterClass: 16,
  inPersonMasterClass: 17,
  roundTable: 18,
  teacherOlympiad: 19,
  pupilOlympiad: 20,
  teacherForum: 21,
  masteryContest: 22,
  methodicalContest: 23,
  pupilContest: 24,
  internship: 25,
} as const;

export const serviceSubtypesData: Seeded<typeof dictServiceSubtypes>[] = [
  { id: 1, fdv: 'Всероссийская конференция', dv: 'Всероссийская', dict_service_type_id: 1, points: 10 },
  { id: 2, fdv: 'Международная конференция', dv: 'Международная', dict_service_type_id: 1, points: 15 },
  { id: 3, fdv: 'Городская конференция', dv: 'Городская', dict_service_type_id: 1, points: 8, is_spb: 1 },
  { id: 4, fdv: 'Публикация в журнале', dv: 'Журнал', dict_service_type_id: 5, points: 20, is_publication: true, publication_has_file: true },
  { id: 5, fdv: 'Интернет-публикация', dv: 'Интернет', dict_service_type_id: 5, points: 10, is_publication: true },
  {
    id: 6,
    fdv: 'Публикация в сборнике материалов конференции',
    dv: 'Сборник',
    dict_service_type_id: 5,
    points: 15,
    is_publication: true,
    publication_has_file: true,
  },
  { id: 7, fdv: 'Вебинар-практикум', dv: 'Практикум', dict_service_type_id: 2, points: 6 },
  { id: 8, fdv: 'Тематический вебинар', dv: 'Тематический', dict_service_type_id: 2, points: 4 },
  { id: 9, fdv: 'Повышение квалификации, 36 часов', dv: '36 ч', dict_service_type_id: 3, points: 20 },
  { id: 10, fdv: 'Повышение квалификации, 72 часа', dv: '72 ч', dict_service_type_id: 3, points: 30 },
  { id: 11, fdv: 'Повышение квалификации, 108 часов', dv: '108 ч', dict_service_type_id: 3, points: 40 },
  { id: 12, fdv: 'Переподготовка, 250 часов', dv: '250 ч', dict_service_type_id: 4, points: 50 },
  { id: 13, fdv: 'Переподготовка, 520 часов', dv: '520 ч', dict_service_type_id: 4, points: 70 },
  { id: 14, fdv: 'Семинар для педагогов', dv: 'Педагогам', dict_service_type_id: 6, points: 8 },
  { id: 15, fdv: 'Семинар для руководителей', dv: 'Руководителям', dict_service_type_id: 6, points: 10 },
  { id: 16, fdv: 'Онлайн мастер-класс', dv: 'Онлайн', dict_service_type_id: 7, points: 5 },
  { id: 17, fdv: 'Очный мастер-класс', dv: 'Очно', dict_service_type_id: 7, points: 7, is_spb: 1 },
  { id: 18, fdv: 'Круглый стол', dv: 'Круглый стол', dict_service_type_id: 8, points: 5 },
  { id: 19, fdv: 'Олимпиада для педагогов', dv: 'Педагогам', dict_service_type_id: 9, points: 8 },
  { id: 20, fdv: 'Олимпиада для обучающихся', dv: 'Обучающимся', dict_service_type_id: 9, points: 5 },
  { id: 21, fdv: 'Педагогический форум', dv: 'Форум', dict_service_type_id: 10, points: 12 },
  { id: 22, fdv: 'Конкурс профессионального мастерства', dv: 'Мастерство', dict_service_type_id: 11, points: 12 },
  { id: 23, fdv: 'Конкурс методических разработок', dv: 'Методразработки', dict_service_type_id: 11, points: 10 },
  { id: 24, fdv: 'Творческий конкурс для обучающихся', dv: 'Обучающимся', dict_service_type_id: 11, points: 6 },
  { id: 25, fdv: 'Стажировка в образовательной организации', dv: 'Стажировка', dict_service_type_id: 12, points: 20, is_spb: 1 },
];

export const macroCategoryIds = { user: 1, entry: 2, service: 3, publication: 4, contract: 5, system: 6 } as const;

export const macroCategoriesData: Seeded<typeof dictMacrosCategories>[] = [
  { id: 1, fdv: 'Пользователь' },
  { id: 2, fdv: 'Заявка' },
  { id: 3, fdv: 'Услуга' },
  { id: 4, fdv: 'Публикация' },
  { id: 5, fdv: 'Договор' },
  { id: 6, fdv: 'Система' },
];

const c = macroCategoryIds;

/**
 * The macro catalogue. One syntax in every kind of template: `${name}` (docxtemplater's delimiters in
 * .docx, the same text in HTML and mail). Texts stored with the older `{name}` keep working. Each
 * macro is filled by server/src/features/macros/macro-values.ts (see docs/decisions/006-macros-and-documents.md).
 */
export const macrosesData: Seeded<typeof dictMacroses>[] = [
  { id: 1, fdv: '${user.fio}', description: 'ФИО пользователя полностью', dict_category_id: c.user },
  { id: 2, fdv: '${user.last_name}', description: 'Фамилия пользователя', dict_category_id: c.user },
  { id: 3, fdv: '${user.first_name}', description: 'Имя пользователя', dict_category_id: c.user },
  { id: 4, fdv: '${user.middle_name}', description: 'Отчество пользователя', dict_category_id: c.user },
  { id: 5, fdv: '${user.email}', description: 'Электронная почта пользователя', dict_category_id: c.user },
  { id: 6, fdv: '${user.phone}', description: 'Телефон пользователя', dict_category_id: c.user },
  { id: 7, fdv: '${user.organization}', description: 'Организация (место работы)', dict_category_id: c.user },
  { id: 8, fdv: '${user.job_title}', description: 'Должность', dict_category_id: c.user },
  { id: 9, fdv: '${user.region}', description: 'Регион пользователя', dict_category_id: c.user },
  { id: 31, fdv: '${user.fio_dative}', description: 'ФИО в дательном падеже (кому): Иванову Ивану Ивановичу', dict_category_id: c.user },
  { id: 32, fdv: '${user.last_name_dative}', description: 'Фамилия в дательном падеже', dict_category_id: c.user },
  { id: 33, fdv: '${user.first_name_dative}', description: 'Имя в дательном падеже', dict_category_id: c.user },
  { id: 34, fdv: '${user.middle_name_dative}', description: 'Отчество в дательном падеже', dict_category_id: c.user },
  { id: 35, fdv: '${user.fio_short}', description: 'Фамилия и инициалы: Иванов И. И.', dict_category_id: c.user },
  { id: 36, fdv: '${user.gender}', description: 'Пол пользователя (по отчеству): мужской или женский', dict_category_id: c.user },
  { id: 37, fdv: '${user.birthday}', description: 'Дата рождения', dict_category_id: c.user },
  { id: 38, fdv: '${user.address}', description: 'Адрес регистрации', dict_category_id: c.user },
  { id: 39, fdv: '${user.snils}', description: 'СНИЛС', dict_category_id: c.user },
  { id: 40, fdv: '${user.passport}', description: 'Паспорт: серия и номер', dict_category_id: c.user },
  { id: 41, fdv: '${user.passport_date}', description: 'Паспорт: дата выдачи', dict_category_id: c.user },
  { id: 42, fdv: '${user.passport_issued_by}', description: 'Паспорт: кем выдан', dict_category_id: c.user },
  { id: 10, fdv: '${entry.number}', description: 'Номер заявки', dict_category_id: c.entry },
  { id: 11, fdv: '${entry.price}', description: 'Стоимость участия по заявке, ₽', dict_category_id: c.entry },
  { id: 43, fdv: '${entry.price_words}', description: 'Стоимость участия по заявке прописью', dict_category_id: c.entry },
  { id: 12, fdv: '${entry.status}', description: 'Статус заявки', dict_category_id: c.entry },
  { id: 13, fdv: '${entry.section}', description: 'Секция (номинация), выбранная в заявке', dict_category_id: c.entry },
  { id: 14, fdv: '${entry.certificate_number}', description: 'Номер сертификата (12 цифр)', dict_category_id: c.entry },
  { id: 15, fdv: '${entry.registration_number}', description: 'Регистрационный номер документа об обучении', dict_category_id: c.entry },
  { id: 88, fdv: '${cert.qr}', description: 'QR-код для проверки подлинности документа (картинка; только в сертификатах)', dict_category_id: c.entry },
  { id: 89, fdv: '${cert.code}', description: 'Код проверки подлинности документа (только в сертификатах)', dict_category_id: c.entry },
  { id: 90, fdv: '${cert.url}', description: 'Адрес страницы проверки документа (только в сертификатах)', dict_category_id: c.entry },
  { id: 16, fdv: '${entry.created_at}', description: 'Дата подачи заявки', dict_category_id: c.entry },
  { id: 44, fdv: '${entry.done_at}', description: 'Дата завершения обучения (участия)', dict_category_id: c.entry },
  { id: 17, fdv: '${entry.participation}', description: 'Форма участия: очно или дистанционно', dict_category_id: c.entry },
  { id: 18, fdv: '${service.title}', description: 'Название услуги', dict_category_id: c.service },
  { id: 19, fdv: '${service.type}', description: 'Тип услуги', dict_category_id: c.service },
  { id: 45, fdv: '${service.subtype}', description: 'Подтип услуги', dict_category_id: c.service },
  { id: 20, fdv: '${service.interval}', description: 'Даты проведения услуги; для услуг без дат — «по индивидуальному графику»', dict_category_id: c.service },
  { id: 46, fdv: '${service.begda}', description: 'Дата начала', dict_category_id: c.service },
  { id: 47, fdv: '${service.endda}', description: 'Дата окончания', dict_category_id: c.service },
  { id: 21, fdv: '${service.hours}', description: 'Объём программы в часах', dict_category_id: c.service },
  { id: 48, fdv: '${service.days}', description: 'Продолжительность в днях', dict_category_id: c.service },
  { id: 49, fdv: '${service.price}', description: 'Стоимость услуги, ₽', dict_category_id: c.service },
  { id: 50, fdv: '${service.price_words}', description: 'Стоимость услуги прописью', dict_category_id: c.service },
  { id: 22, fdv: '${service.leadings}', description: 'Ведущие услуги', dict_category_id: c.service },
  { id: 23, fdv: '${publication.title}', description: 'Название публикации', dict_category_id: c.publication },
  { id: 24, fdv: '${publication.url}', description: 'Адрес опубликованного материала', dict_category_id: c.publication },
  { id: 25, fdv: '${publication.manager_comment}', description: 'Комментарий модератора к публикации', dict_category_id: c.publication },
  { id: 26, fdv: '${contract.status}', description: 'Статус договора', dict_category_id: c.contract },
  { id: 27, fdv: '${contract.comment}', description: 'Причина отклонения договора', dict_category_id: c.contract },
  { id: 51, fdv: '${contract.date}', description: 'Дата договора (загрузки скана)', dict_category_id: c.contract },
  { id: 28, fdv: '${app.url}', description: 'Адрес личного кабинета', dict_category_id: c.system },
  { id: 29, fdv: '${app.date}', description: 'Текущая дата', dict_category_id: c.system },
  { id: 30, fdv: '${password}', description: 'Новый пароль (только в письме о восстановлении пароля)', dict_category_id: c.system },
  { id: 52, fdv: '${org.name}', description: 'Краткое наименование учебного центра', dict_category_id: c.system },
  { id: 53, fdv: '${org.full_name}', description: 'Полное наименование учебного центра', dict_category_id: c.system },
  { id: 54, fdv: '${org.inn}', description: 'ИНН учебного центра', dict_category_id: c.system },
  { id: 55, fdv: '${org.kpp}', description: 'КПП учебного центра', dict_category_id: c.system },
  { id: 56, fdv: '${org.ogrn}', description: 'ОГРН учебного центра', dict_category_id: c.system },
  { id: 57, fdv: '${org.address}', description: 'Юридический адрес учебного центра', dict_category_id: c.system },
  { id: 58, fdv: '${org.phone}', description: 'Телефон учебного центра', dict_category_id: c.system },
  { id: 59, fdv: '${org.email}', description: 'Электронная почта учебного центра', dict_category_id: c.system },
  { id: 60, fdv: '${org.bank}', description: 'Банк учебного центра', dict_category_id: c.system },
  { id: 61, fdv: '${org.bik}', description: 'БИК банка', dict_category_id: c.system },
  { id: 62, fdv: '${org.account}', description: 'Расчётный счёт', dict_category_id: c.system },
  { id: 63, fdv: '${org.corr_account}', description: 'Корреспондентский счёт', dict_category_id: c.system },
  { id: 64, fdv: '${org.director}', description: 'Руководитель учебного центра (ФИО)', dict_category_id: c.system },
  { id: 65, fdv: '${org.director_position}', description: 'Должность руководителя', dict_category_id: c.system },
  { id: 66, fdv: '${org.license}', description: 'Лицензия на образовательную деятельность', dict_category_id: c.system },
  { id: 67, fdv: '${org.city}', description: 'Город учебного центра', dict_category_id: c.system },
  { id: 68, fdv: '${package.title}', description: 'Название пакета услуг (письмо об удалении неоплаченного пакета)', dict_category_id: c.entry },
  {
    id: 69,
    fdv: '${package.entries}',
    description: 'Заявки пакета услуг: номера и услуги (письмо об удалении неоплаченного пакета)',
    dict_category_id: c.entry,
  },
  {
    id: 70,
    fdv: '${entry.summary}',
    description: 'Что создано: заявка или пакет услуг с номерами и суммой (событие «Заявка создана»)',
    dict_category_id: c.entry,
  },
  {
    id: 71,
    fdv: '${payment.summary}',
    description: 'Что оплачено: заявка, несколько заявок или пакет услуг с суммой (событие «Заявка оплачена»)',
    dict_category_id: c.entry,
  },
  { id: 72, fdv: '${refund.sum}', description: 'Сумма возврата (событие «Возврат оплаты»)', dict_category_id: c.entry },
  { id: 73, fdv: '${refund.summary}', description: 'Что возвращено: сумма и заявки платежа (событие «Возврат оплаты»)', dict_category_id: c.entry },
  { id: 74, fdv: '${refund.reason}', description: 'Причина возврата (событие «Возврат оплаты»)', dict_category_id: c.entry },
  {
    id: 75,
    fdv: '${entry.payment_note}',
    description: 'Что и где оплатить по заявке или пакету; для бесплатной заявки — что оплачивать ничего не нужно',
    dict_category_id: c.entry,
  },
  {
    id: 76,
    fdv: '${payment.canceled_summary}',
    description: 'Почему оплата не прошла и что делать: для пакета услуг — до какого времени он забронирован (событие «Оплата не прошла»)',
    dict_category_id: c.entry,
  },
  {
    id: 77,
    fdv: '${service.title_quoted}',
    description: 'Название услуги в кавычках «…»; кавычки внутри названия — „…“ (не ставьте вокруг макроса свои кавычки)',
    dict_category_id: c.service,
  },
  {
    id: 78,
    fdv: '${service.name_quoted}',
    description: 'Название услуги в кавычках без слова типа впереди: «Семинар «Цифровая школа»» → «Цифровая школа» (для фраз «в семинаре …», «по программе …»)',
    dict_category_id: c.service,
  },
  { id: 79, fdv: '${publication.title_quoted}', description: 'Название публикации в кавычках «…»', dict_category_id: c.publication },
  {
    id: 80,
    fdv: '${entry.period}',
    description: 'Сроки участия по заявке: «в период с 01.02.2026 по 03.02.2026» или одна дата; для услуг без дат — со дня заявки до завершения',
    dict_category_id: c.entry,
  },
  {
    id: 81,
    fdv: '${entry.price_clause}',
    description: 'Стоимость по договору одной фразой: цена заявки цифрами и прописью, «в составе пакета «…» стоимостью …» для услуги из пакета или «бесплатно»',
    dict_category_id: c.entry,
  },
  {
    id: 82,
    fdv: '${entry.payment_terms}',
    description: 'Порядок оплаты по договору одной фразой (для бесплатной заявки — что плата не взимается)',
    dict_category_id: c.entry,
  },
  { id: 83, fdv: '${entry.package_title}', description: 'Пакет услуг, в составе которого куплена заявка', dict_category_id: c.entry },
  {
    id: 85,
    fdv: '${entry.customer_duty}',
    description: 'Что обязуется Заказчик по договору: «оплатить обучение», для бесплатной заявки — «пройти обучение»',
    dict_category_id: c.entry,
  },
  { id: 84, fdv: '${entry.package_price}', description: 'Стоимость пакета услуг, в составе которого куплена заявка, ₽', dict_category_id: c.entry },
  {
    id: 86,
    fdv: '${package.name_quoted}',
    description:
      'Название пакета услуг в кавычках без слова «Пакет» впереди: «Пакет «Молодой педагог»» → «Молодой педагог» (письмо об удалении неоплаченного пакета; не ставьте вокруг макроса свои кавычки)',
    dict_category_id: c.entry,
  },
];

export const templateTypesData: Seeded<typeof dictTemplateTypes>[] = [
  { id: 1, fdv: 'Сертификат', dv: 'certificate', icon: 'IconCertificate', available_categories: [c.user, c.entry, c.service, c.system] },
  { id: 2, fdv: 'Программа', dv: 'program', icon: 'IconListDetails', available_categories: [c.service, c.system] },
  { id: 3, fdv: 'Регистрационный лист', dv: 'regList', icon: 'IconClipboardList', available_categories: [c.user, c.entry, c.service, c.system] },
  { id: 4, fdv: 'Страница', dv: 'page', icon: 'IconFileText', available_categories: [c.service, c.system] },
  { id: 5, fdv: 'Уведомление', dv: 'notification', icon: 'IconBell', available_categories: [c.user, c.entry, c.service, c.publication, c.contract, c.system] },
  { id: 6, fdv: 'Согласие', dv: 'consent', icon: 'IconShieldCheck', available_categories: [c.user, c.system] },
  { id: 7, fdv: 'Договор', dv: 'contract', icon: 'IconFileCertificate', available_categories: [c.user, c.entry, c.service, c.contract, c.system] },
];

/** Event ids the server uses to pick the mail and notification of a happening. */

const signature = '<p>С уважением,<br>команда учебного центра</p>';
const cabinetLink = '<p><a href="${app.url}">Перейти в личный кабинет</a></p>';

/** The "entry created" letter: the payment line comes from ${entry.payment_note}, so a free entry is not asked to pay. */
const ENTRY_CREATED_LETTER =
  '<p>Здравствуйте, ${user.fio}!</p><p>Ваша заявка № ${entry.number} на участие в мероприятии ${service.title_quoted} принята.</p><p>${entry.payment_note}</p>' +
  cabinetLink +
  signature;

/**
 * Letters shipped by earlier versions, replaced on start by today's default when an install still has
 * them word for word (an operator's own text is never touched).
 */
export const replacedEventContents: Array<{ eventId: number; old: string; now: string }> = [
  {
    eventId: EventId.entryCreated,
    old:
      '<p>Здравствуйте, ${user.fio}!</p><p>Ваша заявка № ${entry.number} на участие в мероприятии «${service.title}» принята. Стоимость участия: ${entry.price} ₽.</p><p>Оплатить заявку можно в разделе «Мои заявки».</p>' +
      cabinetLink +
      signature,
    now: ENTRY_CREATED_LETTER,
  },
];

/** Event ids are fixed in domain (EventId): the server raises them by these numbers. */
export const eventsData: Seeded<typeof dictEvents>[] = [
  {
    id: EventId.welcome,
    fdv: 'Регистрация пользователя',
    icon: 'IconUserPlus',
    color: 'teal',
    dv: 'Добро пожаловать в личный кабинет!',
    content:
      '<p>Здравствуйте, ${user.fio}!</p><p>Вы зарегистрировались в личном кабинете учебного центра. Для входа используйте адрес электронной почты <b>${user.email}</b> и пароль, указанный при регистрации.</p><p>В кабинете можно записаться на конференции, вебинары и курсы, оплатить участие и скачать сертификаты.</p>' +
      cabinetLink +
      signature,
  },
  {
    id: EventId.entryCreated,
    fdv: 'Заявка создана',
    icon: 'IconFilePlus',
    color: 'blue',
    dv: 'Заявка № ${entry.number} принята',
    content: ENTRY_CREATED_LETTER,
  },
  {
    id: EventId.entryPaid,
    fdv: 'Заявка оплачена',
    icon: 'IconCreditCard',
    color: 'green',
    dv: 'Оплата заявки № ${entry.number} получена',
    content:
      '<p>Здравствуйте, ${user.fio}!</p><p>Оплата по заявке № ${entry.number} (${service.title_quoted}) получена. Даты проведения: ${service.interval}.</p>' +
      cabinetLink +
      signature,
  },
  {
    id: EventId.entryDone,
    fdv: 'Заявка завершена',
    icon: 'IconCircleCheck',
    color: 'grape',
    dv: 'Участие завершено: ${service.title_quoted}',
    content:
      '<p>Здравствуйте, ${user.fio}!</p><p>Благодарим за участие в мероприятии ${service.title_quoted}. Заявка № ${entry.number} завершена, документ об участии доступен для скачивания в личном кабинете.</p>' +
      cabinetLink +
      signature,
  },
  {
    id: EventId.passwordForgot,
    fdv: 'Восстановление пароля',
    icon: 'IconKey',
    color: 'orange',
    dv: 'Новый пароль для входа',
    content:
      '<p>Здравствуйте, ${user.fio}!</p><p>Для вашей учётной записи ${user.email} создан новый пароль: <b>${password}</b></p><p>Прежний пароль действует до первого входа с новым. Если вы не запрашивали смену пароля, просто проигнорируйте это письмо.</p>' +
      cabinetLink +
      signature,
  },
  {
    id: EventId.contractApproved,
    fdv: 'Договор одобрен',
    icon: 'IconFileCheck',
    color: 'green',
    dv: 'Договор по заявке № ${entry.number} одобрен',
    content:
      '<p>Здравствуйте, ${user.fio}!</p><p>Подписанный договор на обучение по программе ${service.title_quoted} проверен и одобрен.</p>' +
      cabinetLink +
      signature,
  },
  {
    id: EventId.contractRejected,
    fdv: 'Договор отклонён',
    icon: 'IconFileX',
    color: 'red',
    dv: 'Договор по заявке № ${entry.number} отклонён',
    content:
      '<p>Здравствуйте, ${user.fio}!</p><p>Подписанный договор на обучение по программе ${service.title_quoted} отклонён.</p><p>Причина: ${contract.comment}</p><p>Исправьте замечания и загрузите скан договора повторно.</p>' +
      cabinetLink +
      signature,
  },
  {
    id: EventId.publicationApproved,
    fdv: 'Публикация одобрена',
    icon: 'IconThumbUp',
    color: 'green',
    dv: 'Публикация ${publication.title_quoted} одобрена',
    content:
      '<p>Здравствуйте, ${user.fio}!</p><p>Ваш материал ${publication.title_quoted} прошёл проверку и одобрен к публикации.</p>' + cabinetLink + signature,
  },
  {
    id: EventId.publicationRejected,
    fdv: 'Публикация отклонена',
    icon: 'IconThumbDown',
    color: 'red',
    dv: 'Публикация ${publication.title_quoted} отклонена',
    content:
      '<p>Здравствуйте, ${user.fio}!</p><p>К сожалению, материал ${publication.title_quoted} не может быть опубликован.</p><p>Комментарий модератора: ${publication.manager_comment}</p>' +
      cabinetLink +
      signature,
  },
  {
    id: EventId.publicationRework,
    fdv: 'Публикация требует доработок',
    icon: 'IconPencil',
    color: 'yellow',
    dv: 'Публикация ${publication.title_quoted} требует доработок',
    content:
      '<p>Здравствуйте, ${user.fio}!</p><p>Материал ${publication.title_quoted} требует доработок.</p><p>Комментарий модератора: ${publication.manager_comment}</p><p>Внесите исправления в личном кабинете и отправьте материал на повторную проверку.</p>' +
      cabinetLink +
      signature,
  },
  {
    id: EventId.publicationPublished,
    fdv: 'Публикация опубликована',
    icon: 'IconWorld',
    color: 'indigo',
    dv: 'Публикация ${publication.title_quoted} размещена на сайте',
    content:
      '<p>Здравствуйте, ${user.fio}!</p><p>Ваш материал ${publication.title_quoted} опубликован: <a href="${publication.url}">${publication.url}</a></p><p>Свидетельство о публикации доступно в личном кабинете.</p>' +
      cabinetLink +
      signature,
  },
  {
    id: EventId.packageExpired,
    fdv: 'Пакет услуг не оплачен',
    icon: 'IconClockX',
    color: 'red',
    dv: 'Заявки пакета ${package.name_quoted} удалены',
    content:
      '<p>Здравствуйте, ${user.fio}!</p><p>Пакет услуг ${package.name_quoted} не был оплачен в течение 15 минут, поэтому его заявки удалены: ${package.entries}.</p><p>Вы можете записаться на пакет заново в разделе «Пакеты услуг».</p>' +
      cabinetLink +
      signature,
  },
  {
    id: EventId.publicationInJournal,
    fdv: 'Публикация взята в журнал',
    icon: 'IconBook',
    color: 'cyan',
    dv: 'Публикация ${publication.title_quoted} взята в журнал',
    content:
      '<p>Здравствуйте, ${user.fio}!</p><p>Ваш материал ${publication.title_quoted} взят в научно-методический журнал. О выходе выпуска мы сообщим дополнительно.</p>' +
      cabinetLink +
      signature,
  },
  {
    id: EventId.paymentRefunded,
    fdv: 'Возврат оплаты',
    icon: 'IconReceiptRefund',
    color: 'grape',
    dv: 'Возврат оплаты: ${refund.sum}',
    content:
      '<p>Здравствуйте, ${user.fio}!</p><p>${refund.summary}</p><p>Причина: ${refund.reason}</p><p>Деньги вернутся на карту или счёт, с которых вы платили; банк обычно зачисляет их в течение нескольких рабочих дней.</p>' +
      cabinetLink +
      signature,
  },
  {
    id: EventId.paymentCanceled,
    fdv: 'Оплата не прошла',
    icon: 'IconCreditCardOff',
    color: 'orange',
    dv: 'Оплата не прошла: ${entry.price}',
    content: '<p>Здравствуйте, ${user.fio}!</p><p>${payment.canceled_summary}</p>' + cabinetLink + signature,
  },
];

/**
 * In-cabinet notification texts of the events (templates of type 5, linked to their event). Seeded
 * once per event; afterwards operators edit them on /manager/templates and pick them on /manager/events.
 */
export const eventNotificationTemplatesData: Array<{ event_id: number; title: string; content: string }> = [
  {
    event_id: EventId.welcome,
    title: 'Добро пожаловать',
    content: 'Добро пожаловать в личный кабинет, ${user.first_name}! Выберите услугу в разделе «Услуги» или пакет услуг.',
  },
  { event_id: EventId.entryCreated, title: 'Заявка создана', content: '${entry.summary}' },
  { event_id: EventId.entryPaid, title: 'Заявка оплачена', content: '${payment.summary}' },
  { event_id: EventId.entryDone, title: 'Заявка завершена', content: 'Заявка № <b>${entry.number}</b> на услугу ${service.title_quoted} завершена.' },
  { event_id: EventId.contractApproved, title: 'Договор одобрен', content: 'Договор по заявке № <b>${entry.number}</b> (${service.title_quoted}) одобрен.' },
  {
    event_id: EventId.contractRejected,
    title: 'Договор отклонён',
    content: 'Договор по заявке № <b>${entry.number}</b> (${service.title_quoted}) отклонён. Причина: ${contract.comment}',
  },
  { event_id: EventId.publicationApproved, title: 'Публикация одобрена', content: 'Публикация ${publication.title_quoted} одобрена.' },
  {
    event_id: EventId.publicationRejected,
    title: 'Публикация отклонена',
    content: 'Публикация ${publication.title_quoted} отклонена. Комментарий модератора: ${publication.manager_comment}',
  },
  {
    event_id: EventId.publicationRework,
    title: 'Публикация требует доработок',
    content: 'Публикация ${publication.title_quoted} требует доработок. Комментарий модератора: ${publication.manager_comment}',
  },
  { event_id: EventId.publicationPublished, title: 'Публикация опубликована', content: 'Публикация ${publication.title_quoted} опубликована на сайте.' },
  {
    event_id: EventId.packageExpired,
    title: 'Пакет услуг не оплачен',
    content: 'Заявки пакета услуг ${package.name_quoted} (${package.entries}) удалены: пакет не был оплачен в течение 15 минут.',
  },
  { event_id: EventId.publicationInJournal, title: 'Публикация взята в журнал', content: 'Публикация ${publication.title_quoted} взята в журнал.' },
  { event_id: EventId.paymentRefunded, title: 'Возврат оплаты', content: '${refund.summary} Причина: ${refund.reason}' },
  { event_id: EventId.paymentCanceled, title: 'Оплата не прошла', content: '${payment.canceled_summary}' },
];

export const publicationCategoriesData: Seeded<typeof dictPublicationCategories>[] = [
  {
    id: 1,
    fdv: 'Дошкольное образование',
    alias: 'doshkolnoe-obrazovanie',
    description: 'Конспекты занятий, сценарии праздников и методические материалы для воспитателей детских садов.',
  },
  { id: 2, fdv: 'Начальная школа', alias: 'nachalnaya-shkola', description: 'Разработки уроков и внеурочных занятий для 1–4 классов.' },
  {
    id: 3,
    fdv: 'Основная и средняя школа',
    alias: 'osnovnaya-i-srednyaya-shkola',
    description: 'Материалы по предметам для 5–11 классов, подготовка к ОГЭ и ЕГЭ.',
  },
  { id: 4, fdv: 'Дополнительное образование', alias: 'dopolnitelnoe-obrazovanie', description: 'Программы и занятия кружков, студий и секций.' },
  { id: 5, fdv: 'Инклюзивное образование', alias: 'inklyuzivnoe-obrazovanie', description: 'Обучение и сопровождение детей с ОВЗ, коррекционная работа.' },
  { id: 6, fdv: 'Воспитательная работа', alias: 'vospitatelnaya-rabota', description: 'Классные часы, работа с родителями, программы воспитания.' },
  { id: 7, fdv: 'Профессиональное образование', alias: 'professionalnoe-obrazovanie', description: 'Материалы преподавателей колледжей и техникумов.' },
  {
    id: 8,
    fdv: 'Управление образованием',
    alias: 'upravlenie-obrazovaniem',
    description: 'Опыт руководителей: планирование, внутренний контроль, работа с кадрами.',
  },
];

export const documentTypesData: Seeded<typeof dictDocumentTypes>[] = [
  { id: 1, fdv: 'Паспорт РФ' },
  { id: 2, fdv: 'Диплом об образовании' },
  { id: 3, fdv: 'СНИЛС' },
  { id: 4, fdv: 'Документ о смене фамилии' },
  { id: 5, fdv: 'Иное' },
  { id: 6, fdv: 'Согласие на обработку персональных данных' },
];

/** The 89 subjects of the Russian Federation with their two-digit codes (tax codes for the new regions). */
const regionList: Array<[code: string, name: string]> = [
  ['01', 'Республика Адыгея'],
  ['02', 'Республика Башкортостан'],
  ['03', 'Республика Бурятия'],
  ['04', 'Республика Алтай'],
  ['05', 'Республика Дагестан'],
  ['06', 'Республика Ингушетия'],
  ['07', 'Кабардино-Балкарская Республика'],
  ['08', 'Республика Калмыкия'],
  ['09', 'Карачаево-Черкесская Республика'],
  ['10', 'Республика Карелия'],
  ['11', 'Республика Коми'],
  ['12', 'Республика Марий Эл'],
  ['13', 'Республика Мордовия'],
  ['14', 'Республика Саха (Якутия)'],
  ['15', 'Республика Северная Осетия — Алания'],
  ['16', 'Республика Татарстан'],
  ['17', 'Республика Тыва'],
  ['18', 'Удмуртская Республика'],
  ['19', 'Республика Хакасия'],
  ['20', 'Чеченская Республика'],
  ['21', 'Чувашская Республика'],
  ['22', 'Алтайский край'],
  ['23', 'Краснодарский край'],
  ['24', 'Красноярский край'],
  ['25', 'Приморский край'],
  ['26', 'Ставропольский край'],
  ['27', 'Хабаровский край'],
  ['28', 'Амурская область'],
  ['29', 'Архангельская область'],
  ['30', 'Астраханская область'],
  ['31', 'Белгородская область'],
  ['32', 'Брянская область'],
  ['33', 'Владимирская область'],
  ['34', 'Волгоградская область'],
  ['35', 'Вологодская область'],
  ['36', 'Воронежская область'],
  ['37', 'Ивановская область'],
  ['38', 'Иркутская область'],
  ['39', 'Калининградская область'],
  ['40', 'Калужская область'],
  ['41', 'Камчатский край'],
  ['42', 'Кемеровская область — Кузбасс'],
  ['43', 'Кировская область'],
  ['44', 'Костромская область'],
  ['45', 'Курганская область'],
  ['46', 'Курская область'],
  ['47', 'Ленинградская область'],
  ['48', 'Липецкая область'],
  ['49', 'Магаданская область'],
  ['50', 'Московская область'],
  ['51', 'Мурманская область'],
  ['52', 'Нижегородская область'],
  ['53', 'Новгородская область'],
  ['54', 'Новосибирская область'],
  ['55', 'Омская область'],
  ['56', 'Оренбургская область'],
  ['57', 'Орловская область'],
  ['58', 'Пензенская область'],
  ['59', 'Пермский край'],
  ['60', 'Псковская область'],
  ['61', 'Ростовская область'],
  ['62', 'Рязанская область'],
  ['63', 'Самарская область'],
  ['64', 'Саратовская область'],
  ['65', 'Сахалинская область'],
  ['66', 'Свердловская область'],
  ['67', 'Смоленская область'],
  ['68', 'Тамбовская область'],
  ['69', 'Тверская область'],
  ['70', 'Томская область'],
  ['71', 'Тульская область'],
  ['72', 'Тюменская область'],
  ['73', 'Ульяновская область'],
  ['74', 'Челябинская область'],
  ['75', 'Забайкальский край'],
  ['76', 'Ярославская область'],
  ['77', 'Москва'],
  ['78', 'Санкт-Петербург'],
  ['79', 'Еврейская автономная область'],
  ['83', 'Ненецкий автономный округ'],
  ['86', 'Ханты-Мансийский автономный округ — Югра'],
  ['87', 'Чукотский автономный округ'],
  ['89', 'Ямало-Ненецкий автономный округ'],
  ['90', 'Запорожская область'],
  ['91', 'Республика Крым'],
  ['92', 'Севастополь'],
  ['93', 'Донецкая Народная Республика'],
  ['94', 'Луганская Народная Республика'],
  ['95', 'Херсонская область'],
];

/** Region ids follow the list order (1..89); look ids up by code rather than assuming them. */
export const regionsData: Seeded<typeof dictRegions>[] = regionList.map(([code, fdv], index) => ({ id: index + 1, fdv, code }));

export function regionIdByCode(code: string): number {
  const region = regionsData.find((r) => r.code === code);
  if (!region) throw new Error(`Unknown region code ${code}`);
  return region.id;
}

export const profileIds = {
  preschool: 1,
  primary: 2,
  russian: 3,
  math: 4,
  languages: 5,
  science: 6,
  history: 7,
  sport: 8,
  additional: 9,
  correctional: 10,
  management: 11,
} as const;

export const profilesData: Seeded<typeof dictProfiles>[] = [
  { id: 1, fdv: 'Дошкольное образование', color: 'pink' },
  { id: 2, fdv: 'Начальное общее образование', color: 'yellow' },
  { id: 3, fdv: 'Русский язык и литература', color: 'red' },
  { id: 4, fdv: 'Математика', color: 'blue' },
  { id: 5, fdv: 'Иностранные языки', color: 'cyan' },
  { id: 6, fdv: 'Естественные науки', color: 'green' },
  { id: 7, fdv: 'История и обществознание', color: 'orange' },
  { id: 8, fdv: 'Физическая культура', color: 'lime' },
  { id: 9, fdv: 'Дополнительное образование', color: 'grape' },
  { id: 10, fdv: 'Коррекционная педагогика', color: 'teal' },
  { id: 11, fdv: 'Управление образованием', color: 'indigo' },
];

export const leadingsData: Seeded<typeof leadings>[] = [
  {
    id: 1,
    fio: 'Кузнецова Елена Александровна',
    description: 'Кандидат педагогических наук, доцент кафедры педагогики и психологии, автор программ повышения квалификации по ФГОС.',
    url: 'https://example.ru/leadings/kuznetsova',
  },
  {
    id: 2,
    fio: 'Морозов Дмитрий Сергеевич',
    description: 'Учитель математики высшей категории, эксперт ЕГЭ, победитель конкурса «Учитель года Санкт-Петербурга».',
    url: 'https://example.ru/leadings/morozov',
  },
  {
    id: 3,
    fio: 'Волкова Ольга Николаевна',
    description: 'Педагог-психолог, учитель-дефектолог, специалист по сопровождению детей с ОВЗ.',
    url: 'https://example.ru/leadings/volkova',
  },
  {
    id: 4,
    fio: 'Лебедев Андрей Викторович',
    description: 'Доктор педагогических наук, профессор, специалист в области управления образованием и цифровой трансформации школы.',
    url: 'https://example.ru/leadings/lebedev',
  },
  {
    id: 5,
    fio: 'Соколова Татьяна Игоревна',
    description: 'Старший воспитатель, методист дошкольного образования, автор пособий по развивающим играм для дошкольников.',
    url: 'https://example.ru/leadings/sokolova',
  },
];

/** A text as versions before titles were quoted by the macros wrote it: «${service.title}» around the bare title. */
function barelyQuoted(text: string): string {
  return text
    .replace(/\(\$\{service\.title_quoted\}\)/g, '(«${service.title}»)')
    .replace(/\$\{service\.title_quoted\}/g, '«${service.title}»')
    .replace(/\$\{publication\.title_quoted\}/g, '«${publication.title}»')
    .replace(/\$\{package\.name_quoted\}/g, '«${package.title}»');
}

/**
 * Subjects, letters and notification texts that earlier versions shipped with «${service.title}» (a
 * title with quotes of its own then read «Семинар «…»») or with a subject that declined the title
 * («Участие в «…» завершено»): replaced on start by today's text where an install still has the old
 * one word for word; an operator's own text is never touched.
 */
export const requotedEventTexts: Array<{ eventId: number; column: 'dv' | 'content'; old: string; now: string }> = eventsData.flatMap((e) => {
  const out: Array<{ eventId: number; column: 'dv' | 'content'; old: string; now: string }> = [];
  const oldSubject = e.id === EventId.entryDone ? 'Участие в «${service.title}» завершено' : barelyQuoted(e.dv ?? '');
  if (e.dv && oldSubject !== e.dv) out.push({ eventId: e.id as number, column: 'dv', old: oldSubject, now: e.dv });
  if (e.content && barelyQuoted(e.content) !== e.content)
    out.push({ eventId: e.id as number, column: 'content', old: barelyQuoted(e.content), now: e.content });
  return out;
});

/** The notification texts (templates of type 5) of the same change. */
export const requotedNotificationTexts = eventNotificationTemplatesData
  .filter((t) => barelyQuoted(t.content) !== t.content)
  .map((t) => ({ eventId: t.event_id, old: barelyQuoted(t.content), now: t.content }));
