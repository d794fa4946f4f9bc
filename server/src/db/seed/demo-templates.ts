import { sql } from 'drizzle-orm';
import type { Queryable } from '../../platform/db.ts';
import { readRequisites, saveRequisites } from '../../features/macros/requisites.ts';
import { readSiteLinks, saveSiteLinks } from '../../features/settings/site-links-repository.ts';
import { shippedTemplateId } from './templates/shipped-templates.ts';

// The demo centre: invented requisites, and its conferences and courses linked to the shipped
// programmes (the templates themselves ship with every install: ./templates/shipped-templates.ts).

/** An invented demo centre (fictitious numbers): the `${org.*}` macros of documents and letters. */
const DEMO_REQUISITES = {
  name: 'АНО ДПО «Учебный центр»',
  full_name: 'Автономная некоммерческая организация дополнительного профессионального образования «Учебный центр»',
  inn: '7800000000',
  kpp: '780001001',
  ogrn: '1207800000000',
  address: '190000, г. Санкт-Петербург, ул. Примерная, д. 1',
  city: 'Санкт-Петербург',
  phone: '+7 (812) 000-00-00',
  email: 'info@example.com',
  bank: 'ПАО «Пример-Банк», г. Санкт-Петербург',
  bik: '044000000',
  account: '40703810000000000000',
  corr_account: '30101810000000000000',
  director: 'Смирнова Ольга Викторовна',
  director_position: 'Директор',
  license: '№ Л035-00000-78/00000000 от 01.02.2021',
};

/** The demo centre's other sites (invented addresses): the top bar's shortcuts and the footer's requisites page. */
const DEMO_SITE_LINKS = {
  requisites_url: 'https://centre.example.com/requisites',
  shortcuts: [
    { label: 'Сайт центра', href: 'https://centre.example.com' },
    { label: 'Электронный журнал', href: 'https://journal.centre.example.com' },
    { label: 'Дистанционное обучение', href: 'https://learn.centre.example.com' },
    { label: 'Конкурсы', href: 'https://contest.centre.example.com' },
  ],
};

/** Adds the demo requisites and site links once; conferences get the event programme, courses the course plan. */
export async function insertDemoTemplates(db: Queryable): Promise<void> {
  if (Object.keys(await readRequisites(db)).length === 0) await saveRequisites(db, DEMO_REQUISITES);
  const links = await readSiteLinks(db);
  if (links.requisites_url === null && links.shortcuts.length === 0) await saveSiteLinks(db, DEMO_SITE_LINKS);
  const event = await shippedTemplateId(db, 'program-event');
  const course = await shippedTemplateId(db, 'program-course');
  if (event) await db.execute(sql`update services set template_program_id = ${event} where dict_type_id = 1 and template_program_id is null`);
  if (course) await db.execute(sql`update services set template_program_id = ${course} where dict_type_id in (3, 4) and template_program_id is null`);
}
