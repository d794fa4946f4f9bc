import { describe, expect, it } from 'vitest';
import {
  BankStatementMessages,
  compareSum,
  entryNumbersIn,
  lineIdentityText,
  parseStatement,
  summaryMessage,
  type StatementDocument,
} from './bank-statement.ts';

// Sberbank-style: LF, spaces around «=», Плательщик1/Получатель1, ДатаПоступило, an account section.
const SBER = [
  '\uFEFF1CClientBankExchange',
  'ВерсияФормата=1.03',
  'Кодировка=Windows',
  'РасчСчет=40702810900000000001',
  'СекцияРасчСчет',
  'РасчСчет=40702810900000000001',
  'НачальныйОстаток=100.00',
  'КонецРасчСчет',
  'СекцияДокумент=Платежное поручение',
  'Номер = 15',
  'Дата = 03.11.2026',
  'Сумма = 1500.00',
  'ПлательщикСчет=40702810400000000777',
  'ПлательщикИНН=7801234567',
  'Плательщик1=ГБОУ СОШ № 5',
  'ПолучательСчет=40702810900000000001',
  'Получатель1=АНО ДПО «Центр»',
  'ПолучательИНН=7812345678',
  'ДатаПоступило=03.11.2026',
  'НазначениеПлатежа=Оплата по счёту № 2611-00004 от 01.11.2026 (заявка № 2611-00004). НДС не облагается.',
  'КонецДокумента',
  'КонецФайла',
].join('\n');

// Another bank: CRLF, Плательщик with the INN in front, ПолучательРасчСчет, a purpose split in parts, no end marker.
const OTHER = [
  '1CClientBankExchange',
  'ВерсияФормата=1.02',
  'СекцияДокумент=Платежное поручение',
  'Номер=7',
  'Дата=04.11.2026',
  'Сумма=2 000,50',
  'Плательщик=ИНН 7701000001 ООО "Ромашка"',
  'ПлательщикРасчСчет=40702 810 1 0000 0000888',
  'ПолучательРасчСчет=40702810900000000001',
  'НазначениеПлатежа1=За участие, заявки №2611-00010,',
  'НазначениеПлатежа2=2611 - 00011',
  'КонецДокумента',
  'СекцияДокумент=Банковский ордер',
  'Номер=8',
  'Сумма=abc',
].join('\r\n');

describe('reading a 1C bank statement', () => {
  it('reads one bank’s spelling: BOM, spaces around «=», account section skipped', () => {
    const r = parseStatement(SBER);
    if (!r.ok) throw new Error(r.problem);
    expect(r.statement.version).toBe('1.03');
    expect(r.statement.accounts).toEqual(['40702810900000000001']);
    expect(r.statement.documents).toHaveLength(1);
    const d = r.statement.documents[0]!;
    expect(d).toMatchObject({
      kind: 'Платежное поручение',
      number: '15',
      date: '03.11.2026',
      received: '03.11.2026',
      kopecks: 150000,
      payerInn: '7801234567',
      payerName: 'ГБОУ СОШ № 5',
      payerAccount: '40702810400000000777',
      recipientAccount: '40702810900000000001',
      recipientInn: '7812345678',
    });
    expect(entryNumbersIn(d.purpose)).toEqual(['2611-00004']);
  });

  it('reads another: CRLF, INN inside Плательщик, РасчСчет keys, split purpose, a section left open', () => {
    const r = parseStatement(OTHER);
    if (!r.ok) throw new Error(r.problem);
    const [a, b] = r.statement.documents as [StatementDocument, StatementDocument];
    expect(a).toMatchObject({ kopecks: 200050, payerInn: '7701000001', payerName: 'ООО "Ромашка"', payerAccount: '40702810100000000888' });
    expect(a.recipientAccount).toBe('40702810900000000001');
    expect(entryNumbersIn(a.purpose)).toEqual(['2611-00010', '2611-00011']);
    expect(b).toMatchObject({ kind: 'Банковский ордер', number: '8', kopecks: null });
  });

  it('refuses a file that is not a 1C statement, or one without documents', () => {
    expect(parseStatement('Фамилия;Имя\n')).toEqual({ ok: false, problem: BankStatementMessages.notOneC });
    expect(parseStatement('')).toEqual({ ok: false, problem: BankStatementMessages.notOneC });
    expect(parseStatement('1CClientBankExchange\nВерсияФормата=1.03\nКонецФайла\n')).toEqual({ ok: false, problem: BankStatementMessages.noDocuments });
  });

  it('finds entry numbers without taking dates, INNs or accounts for them', () => {
    expect(entryNumbersIn('Счёт 2611-00004 от 2026-11-01, ИНН 7801234567, р/с 40702810900000000001')).toEqual(['2611-00004']);
    expect(entryNumbersIn('Оплата за обучение')).toEqual([]);
    expect(entryNumbersIn('№2611-00004 и №2611-00004')).toEqual(['2611-00004']);
  });

  it('compares sums in kopecks and gives the same identity to the same payment', () => {
    expect(compareSum(150000, 150000)).toBe('exact');
    expect(compareSum(100000, 150000)).toBe('partial');
    expect(compareSum(150001, 150000)).toBe('excess');
    const r = parseStatement(SBER);
    const again = parseStatement(SBER.replace(/\n/g, '\r\n').replace('Номер = 15', 'Номер=15'));
    if (!r.ok || !again.ok) throw new Error('unread');
    expect(lineIdentityText(again.statement.documents[0]!)).toBe(lineIdentityText(r.statement.documents[0]!));
  });

  it('says when a statement was imported before', () => {
    const base = { file_name: 'x.txt', documents: 2, paid: 0, paid_entries: [], manual: 0, already: 2, not_incoming: 0, unreadable: 0 };
    expect(summaryMessage(base)).toBe('Эта выписка уже загружена: ничего не изменилось.');
    expect(summaryMessage({ ...base, paid: 1, already: 0, manual: 1 })).toBe('Выписка загружена. Оплачено автоматически: 1, разобрать вручную: 1.');
  });
});
