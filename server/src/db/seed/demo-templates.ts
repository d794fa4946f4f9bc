import { sql } from 'drizzle-orm';
import { TemplateType } from '@edu/domain/common/codes';
import { rows, type Queryable } from '../../platform/db.ts';
import { readRequisites, saveRequisites } from '../../features/macros/requisites.ts';

// Demo HTML templates, so the demo cabinet's print menu offers a programme and a registration list.
// Certificates and contracts are .docx files the operator uploads (spec 02 §2 Template modal).

const page = (body: string) =>
  `<div style="font-family: 'Liberation Serif', serif; font-size: 14pt; line-height: 1.4; padding: 24px 40px">${body}</div>`;

const PROGRAM = page(`
<p style="text-align:center; font-size:11pt">\${org.name}</p>
<h1 style="text-align:center; font-size:18pt">Программа</h1>
<h2 style="text-align:center; font-size:15pt">«\${service.title}»</h2>
<p><b>Сроки проведения:</b> \${service.interval}</p>
<p><b>Ведущие:</b> \${service.leadings}</p>
<table style="width:100%; border-collapse:collapse; margin-top:16px" border="1" cellpadding="6">
  <tr><th style="width:22%">Время</th><th>Содержание</th></tr>
  <tr><td>10:00–10:15</td><td>Открытие, приветственное слово</td></tr>
  <tr><td>10:15–11:30</td><td>Пленарная часть</td></tr>
  <tr><td>11:30–11:45</td><td>Перерыв</td></tr>
  <tr><td>11:45–13:30</td><td>Работа секций</td></tr>
  <tr><td>13:30–14:00</td><td>Подведение итогов, вопросы участников</td></tr>
</table>
<p style="margin-top:24px">Участник: \${user.fio}, заявка № \${entry.number}</p>`);

const REGISTRATION_LIST = page(`
<p style="text-align:center; font-size:11pt">\${org.name}</p>
<h1 style="text-align:center; font-size:18pt">Регистрационный лист участника</h1>
<table style="width:100%; border-collapse:collapse" border="1" cellpadding="6">
  <tr><td style="width:40%">Мероприятие</td><td>\${service.title}</td></tr>
  <tr><td>Сроки проведения</td><td>\${service.interval}</td></tr>
  <tr><td>Номер заявки</td><td>\${entry.number} от \${entry.created_at}</td></tr>
  <tr><td>Участник</td><td>\${user.fio}</td></tr>
  <tr><td>Организация</td><td>\${user.organization}</td></tr>
  <tr><td>Должность</td><td>\${user.job_title}</td></tr>
  <tr><td>Форма участия</td><td>\${entry.participation}</td></tr>
  <tr><td>Секция</td><td>\${entry.section}</td></tr>
  <tr><td>Телефон, e-mail</td><td>\${user.phone}, \${user.email}</td></tr>
</table>
<p style="margin-top:32px">Подпись участника ____________________ / \${user.fio_short} /</p>
<p>Дата: \${app.date}</p>`);

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
  bank: 'ПАО «Демо-банк», г. Санкт-Петербург',
  bik: '044000000',
  account: '40703810000000000000',
  corr_account: '30101810000000000000',
  director: 'Смирнова Ольга Викторовна',
  director_position: 'Директор',
};

/** Adds the demo requisites, programme and registration list once; conferences get the programme. */
export async function insertDemoTemplates(db: Queryable): Promise<void> {
  if (Object.keys(await readRequisites(db)).length === 0) await saveRequisites(db, DEMO_REQUISITES);
  const [existing] = await rows<{ n: number }>(db, sql`select count(*)::int as n from templates where dict_type_id in (${TemplateType.program}, ${TemplateType.regList})`);
  if (Number(existing?.n ?? 0) > 0) return;
  const [program] = await rows<{ id: number }>(
    db,
    sql`insert into templates (title, content, dict_type_id) values ('Программа мероприятия', ${PROGRAM}, ${TemplateType.program}) returning id`,
  );
  await db.execute(sql`insert into templates (title, content, dict_type_id) values ('Регистрационный лист участника', ${REGISTRATION_LIST}, ${TemplateType.regList})`);
  await db.execute(sql`update services set template_program_id = ${program.id} where dict_type_id = 1 and template_program_id is null`);
}
