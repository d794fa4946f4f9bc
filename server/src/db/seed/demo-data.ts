// Demo catalogue and accounts for development and manual testing (not seeded in production).
import { DateType, ParticipationType, Role } from '@edu/domain/common/codes';
import type { servicePackages, services, users } from '../schema/index.ts';
import { profileIds as p, regionIdByCode, serviceSubtypeIds as st, serviceTypeIds as t } from './dictionaries-data.ts';

type ServiceRow = Omit<typeof services.$inferInsert, 'id'>;

export interface DemoService extends ServiceRow {
  /** Stable key used by packages to refer to the service. */
  key: string;
  sections?: string[];
  profileIds: number[];
  leadingIds: number[];
}

export interface DemoPackage extends Omit<typeof servicePackages.$inferInsert, 'id' | 'price' | 'old_price' | 'points'> {
  price: number;
  serviceKeys: string[];
}

export interface DemoUser extends Omit<typeof users.$inferInsert, 'id' | 'password'> {
  profileIds: number[];
}

export const DEMO_OPERATOR_EMAIL = 'demo-operator@example.com';
export const DEMO_USER_EMAIL = 'demo-user@example.com';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Moscow time (UTC+3) `hour:minute` on the day `days` after now's UTC day. */
function at(now: Date, days: number, hour: number, minute = 0): Date {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return new Date(midnight + days * DAY_MS + ((hour - 3) * 60 + minute) * 60 * 1000);
}

const p1 = (text: string) => `<p>${text}</p>`;
const list = (items: string[]) => `<ul>${items.map((i) => `<li>${i}</li>`).join('')}</ul>`;

export function demoServices(now: Date): DemoService[] {
  return [
    {
      key: 'conference-tradition',
      title: 'Всероссийская конференция «Современное образование: традиции и инновации»',
      description:
        p1('Конференция объединяет педагогов, методистов и руководителей, внедряющих новые подходы в обучении.') +
        list(['пленарное заседание', 'работа секций', 'публикация тезисов в сборнике материалов']),
      price: 500,
      points: 10,
      dict_type_id: t.conference,
      dict_subtype_id: st.allRussianConference,
      date_type: DateType.specific,
      begda: at(now, 21, 10),
      endda: at(now, 21, 17),
      participation_type: ParticipationType.both,
      max_participants: 0,
      is_thesis_needed: true,
      sections: ['Дошкольное и начальное образование', 'Основная и средняя школа', 'Дополнительное образование'],
      profileIds: [p.preschool, p.primary, p.additional],
      leadingIds: [1, 4],
    },
    {
      key: 'conference-digital',
      title: 'Международная конференция «Цифровая трансформация школы»',
      description: p1('Обсуждаем цифровые образовательные платформы, искусственный интеллект в обучении и информационную безопасность детей.'),
      price: 700,
      points: 15,
      dict_type_id: t.conference,
      dict_subtype_id: st.internationalConference,
      date_type: DateType.specific,
      begda: at(now, -40, 10),
      endda: at(now, -39, 16),
      is_done: true,
      participation_type: ParticipationType.extramural,
      max_participants: 300,
      is_thesis_needed: true,
      sections: ['Цифровые платформы в обучении', 'Искусственный интеллект в школе', 'Информационная безопасность', 'Управление цифровой школой'],
      profileIds: [p.management, p.math],
      leadingIds: [4],
    },
    {
      key: 'webinar-assessment',
      title: 'Вебинар «Формирующее оценивание на уроках в начальной школе»',
      description: p1('Практические приёмы формирующего оценивания: листы самооценки, критерии успеха, обратная связь ученику.'),
      price: 0,
      points: 5,
      dict_type_id: t.webinar,
      dict_subtype_id: st.practicalWebinar,
      date_type: DateType.specific,
      begda: at(now, 7, 15),
      endda: at(now, 7, 16, 30),
      participation_type: ParticipationType.extramural,
      max_participants: 100,
      profileIds: [p.primary],
      leadingIds: [1],
    },
    {
      key: 'webinar-burnout',
      title: 'Вебинар «Профилактика эмоционального выгорания педагога»',
      description: p1('Запись вебинара с рабочей тетрадью: признаки выгорания, техники саморегуляции, планирование нагрузки.'),
      price: 350,
      points: 4,
      dict_type_id: t.webinar,
      dict_subtype_id: st.thematicWebinar,
      date_type: DateType.permanent,
      participation_type: ParticipationType.extramural,
      max_participants: 0,
      profileIds: [p.primary, p.preschool, p.correctional],
      leadingIds: [3],
    },
    {
      key: 'course-fgos',
      title: 'Курсы повышения квалификации «ФГОС ООО: проектирование рабочей программы»',
      description:
        p1('Программа повышения квалификации в объёме 72 часов с выдачей удостоверения установленного образца.') +
        list(['обновлённые ФГОС и ФОП', 'конструктор рабочих программ', 'планируемые результаты и оценочные материалы']),
      price: 4900,
      points: 30,
      dict_type_id: t.qualification,
      dict_subtype_id: st.qualification72,
      date_type: DateType.specific,
      begda: at(now, 10, 9),
      endda: at(now, 24, 18),
      hours: 72,
      days: 14,
      participation_type: ParticipationType.extramural,
      // A distance course takes a whole region's teachers (0 would mean the default 27 seats, which
      // the browser journeys, sharing one install, used up: verify.spec's client was refused).
      max_participants: 500,
      profileIds: [p.russian, p.math, p.history, p.science],
      leadingIds: [1, 2],
    },
    {
      key: 'course-first-aid',
      title: 'Курсы «Оказание первой помощи в образовательной организации»',
      description: p1('Обязательное обучение педагогических работников навыкам оказания первой помощи, 36 часов, с практическими занятиями.'),
      price: 2500,
      points: 20,
      dict_type_id: t.qualification,
      dict_subtype_id: st.qualification36,
      date_type: DateType.open,
      hours: 36,
      days: 5,
      participation_type: ParticipationType.both,
      max_participants: 20,
      sections: ['Группа 1 (утренняя)', 'Группа 2 (вечерняя)'],
      profileIds: [p.sport, p.preschool, p.primary],
      leadingIds: [3],
    },
    {
      key: 'retraining-additional',
      title: 'Переподготовка «Педагогика дополнительного образования детей и взрослых»',
      description: p1('Программа профессиональной переподготовки в объёме 250 часов с присвоением квалификации «Педагог дополнительного образования».'),
      price: 14900,
      points: 50,
      dict_type_id: t.retraining,
      dict_subtype_id: st.retraining250,
      date_type: DateType.open,
      hours: 250,
      days: 60,
      participation_type: ParticipationType.extramural,
      max_participants: 0,
      profileIds: [p.additional],
      leadingIds: [4, 5],
    },
    {
      key: 'publication-internet',
      title: 'Публикация в сетевом издании «Педагогический вестник»',
      description: p1('Размещение статьи или методической разработки на сайте сетевого издания с выдачей свидетельства о публикации.'),
      price: 350,
      points: 10,
      is_publication: true,
      dict_type_id: t.publication,
      dict_subtype_id: st.internetPublication,
      date_type: DateType.permanent,
      participation_type: ParticipationType.extramural,
      max_participants: 0,
      profileIds: [p.preschool, p.primary, p.russian, p.math],
      leadingIds: [],
    },
    {
      key: 'publication-journal',
      title: 'Публикация статьи в научно-методическом журнале «Образование сегодня»',
      description: p1('Публикация в ближайшем выпуске журнала; статья проходит проверку на уникальность и рецензирование.'),
      price: 1500,
      points: 20,
      is_publication: true,
      dict_type_id: t.publication,
      dict_subtype_id: st.journalPublication,
      date_type: DateType.permanent,
      participation_type: ParticipationType.extramural,
      max_participants: 0,
      profileIds: [p.management, p.history, p.science],
      leadingIds: [],
    },
    {
      key: 'contest-lesson',
      title: 'Всероссийский конкурс педагогического мастерства «Мой лучший урок»',
      description: p1('Участники представляют конспект и видеозапись урока. Победители и призёры получают дипломы, участники — сертификаты.'),
      price: 400,
      points: 12,
      dict_type_id: t.contest,
      dict_subtype_id: st.masteryContest,
      date_type: DateType.specific,
      begda: at(now, 5, 9),
      endda: at(now, 35, 18),
      participation_type: ParticipationType.extramural,
      max_participants: 0,
      sections: ['Дошкольное образование', 'Начальная школа', 'Основная и средняя школа'],
      profileIds: [p.preschool, p.primary, p.russian, p.math],
      leadingIds: [2],
    },
    {
      key: 'contest-methodical',
      title: 'Конкурс методических разработок «Копилка педагогического опыта»',
      description: p1('Приём конкурсных работ круглый год: сценарии мероприятий, технологические карты уроков, рабочие программы.'),
      price: 300,
      points: 10,
      dict_type_id: t.contest,
      dict_subtype_id: st.methodicalContest,
      date_type: DateType.open,
      participation_type: ParticipationType.extramural,
      max_participants: 0,
      sections: ['Методическая разработка урока', 'Сценарий внеурочного мероприятия'],
      profileIds: [p.additional, p.languages],
      leadingIds: [1],
    },
    {
      key: 'seminar-inclusion',
      title: 'Семинар «Инклюзивное образование: сопровождение детей с ОВЗ»',
      description: p1('Разбор практических случаев, адаптированные образовательные программы, взаимодействие с родителями.'),
      price: 1200,
      points: 8,
      dict_type_id: t.seminar,
      dict_subtype_id: st.teacherSeminar,
      date_type: DateType.specific,
      begda: at(now, -10, 11),
      endda: at(now, -10, 15),
      is_done: true,
      participation_type: ParticipationType.intramural,
      max_participants: 25,
      sections: ['Дошкольный уровень', 'Школьный уровень'],
      profileIds: [p.correctional, p.preschool],
      leadingIds: [3],
    },
    {
      key: 'master-class-games',
      title: 'Мастер-класс «Нейропсихологические игры для дошкольников»',
      description: p1('Игры и упражнения для развития межполушарного взаимодействия, внимания и речи у детей 4–7 лет.'),
      price: 0,
      points: 5,
      dict_type_id: t.masterClass,
      dict_subtype_id: st.onlineMasterClass,
      date_type: DateType.specific,
      begda: at(now, 3, 16),
      endda: at(now, 3, 17, 30),
      participation_type: ParticipationType.extramural,
      max_participants: 0,
      profileIds: [p.preschool, p.correctional],
      leadingIds: [5],
    },
  ];
}

export const demoPackages: DemoPackage[] = [
  {
    title: 'Пакет «Учитель начальных классов»',
    description: p1('Курсы по ФГОС, вебинар о профилактике выгорания и публикация методической разработки со скидкой.'),
    color: 'teal',
    price: 4500,
    is_pinned: true,
    dict_profile_id: p.primary,
    serviceKeys: ['course-fgos', 'webinar-burnout', 'publication-internet'],
  },
  {
    title: 'Пакет «Активный педагог»',
    description: p1('Конференция, конкурс педагогического мастерства и публикация в журнале по выгодной цене.'),
    color: 'purple',
    price: 1900,
    is_pinned: false,
    serviceKeys: ['conference-tradition', 'contest-lesson', 'publication-journal'],
  },
];

export const demoOperator: DemoUser = {
  email: DEMO_OPERATOR_EMAIL,
  phone: '+7 (900) 000-00-01',
  last_name: 'Смирнова',
  first_name: 'Анна',
  middle_name: 'Викторовна',
  organization: 'АНО ДПО «Центр развития образования»',
  job_title: 'Методист учебного центра',
  role: Role.operator,
  is_spb: 1,
  region: 'Санкт-Петербург',
  dict_region_id: regionIdByCode('78'),
  country: 'Россия',
  profileIds: [p.management],
};

export const demoUser: DemoUser = {
  email: DEMO_USER_EMAIL,
  phone: '+7 (900) 000-00-02',
  last_name: 'Иванова',
  first_name: 'Мария',
  middle_name: 'Петровна',
  organization: 'ГБОУ СОШ № 123 Калининского района Санкт-Петербурга',
  job_title: 'Учитель начальных классов',
  learned_from_us: 'От коллег',
  role: Role.user,
  is_spb: 1,
  region: 'Санкт-Петербург',
  dict_region_id: regionIdByCode('78'),
  country: 'Россия',
  address: 'Санкт-Петербург, Гражданский пр., д. 10, кв. 5',
  postcode: '195220',
  profileIds: [p.primary, p.russian],
};
