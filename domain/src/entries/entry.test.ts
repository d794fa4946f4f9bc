import { describe, expect, it } from 'vitest';
import { EntryStatus, isPaidStatus } from '../common/codes.ts';
import { certificateRefusal, printRefusal, PrintMessages, type PrintContext } from '../documents/print.ts';
import { clientMayChange, EntryMessages, THESIS_MAX, THESIS_MIN, THESIS_RANGE_TEXT, thesisLengthProblem } from './entry.ts';

describe('thesis length', () => {
  it('passes strictly between 1500 and 10000, and at the bounds says what is needed', () => {
    expect(thesisLengthProblem('а'.repeat(1499))).toBe(EntryMessages.thesisTooShort);
    expect(thesisLengthProblem('а'.repeat(1500))).toBe(EntryMessages.thesisOneMore);
    expect(thesisLengthProblem('а'.repeat(1501))).toBeNull();
    expect(thesisLengthProblem('а'.repeat(9999))).toBeNull();
    expect(thesisLengthProblem('а'.repeat(10000))).toBe(EntryMessages.thesisOneLess);
    expect(thesisLengthProblem('а'.repeat(10001))).toBe(EntryMessages.thesisTooLong);
    expect(THESIS_RANGE_TEXT).toBe('больше 1500 и меньше 10000');
  });

  it('speaks of the same bounds in the counter and in every message (issue 22)', () => {
    const numbers = (text: string) => (text.match(/\d+/g) ?? []).map(Number);
    const bounds = [THESIS_MIN, THESIS_MAX];
    expect(numbers(THESIS_RANGE_TEXT)).toEqual(bounds);
    for (const message of [EntryMessages.thesisTooShort, EntryMessages.thesisOneMore, EntryMessages.thesisTooLong, EntryMessages.thesisOneLess]) {
      for (const n of numbers(message)) expect(bounds).toContain(n);
    }
  });
});

describe('client changes', () => {
  it('allows unpaid and free paid entries, not paid or done ones', () => {
    expect(clientMayChange({ status: 1, price: 500 })).toBe(true);
    expect(clientMayChange({ status: 2, price: 0 })).toBe(true);
    expect(clientMayChange({ status: 2, price: 500 })).toBe(false);
    expect(clientMayChange({ status: 3, price: 0 })).toBe(false);
  });
});

describe('date filters', () => {
  it('tell a real calendar day from an impossible one', async () => {
    const { isRealDate } = await import('./entry.ts');
    const { possibleDateTimePrefix } = await import('../payments/payment.ts');
    expect(isRealDate('29.02.2024')).toBe(true);
    expect(isRealDate('31.02.2024')).toBe(false);
    expect(isRealDate('00.01.2024')).toBe(false);
    expect(possibleDateTimePrefix('2024-02')).toBe(true);
    expect(possibleDateTimePrefix('2024-13')).toBe(false);
    expect(possibleDateTimePrefix('2024-02-31')).toBe(false);
    expect(possibleDateTimePrefix('2024-02-29 23:59')).toBe(true);
    expect(possibleDateTimePrefix('2024-02-29 24')).toBe(false);
  });
});

describe('the certificate rule for publication entries (documents/print)', () => {
  const base: PrintContext = {
    status: 2,
    deleted: false,
    isPublication: true,
    publicationStatus: 2,
    contractNeeded: false,
    registrationNumber: null,
    certificateTemplateId: 1,
    programTemplateId: null,
    regListTemplateId: null,
    contractTemplateId: null,
    payType: 3,
    amount: 900,
  };
  it('needs the entry paid or more and the publication approved or published', () => {
    expect(certificateRefusal({ ...base, status: 2, publicationStatus: 2 })).toBeNull();
    expect(certificateRefusal({ ...base, status: 3, publicationStatus: 4 })).toBeNull();
    expect(certificateRefusal({ ...base, status: 1, publicationStatus: 2 })).toBe(PrintMessages.publicationNotReady);
    expect(certificateRefusal({ ...base, status: 2, publicationStatus: 1 })).toBe(PrintMessages.publicationNotReady);
    expect(certificateRefusal({ ...base, status: 3, publicationStatus: 5 })).toBe(PrintMessages.publicationNotReady);
    expect(certificateRefusal({ ...base, status: 3, publicationStatus: null })).toBe(PrintMessages.publicationNotReady);
    expect(certificateRefusal({ ...base, status: 3, publicationStatus: 4, certificateTemplateId: null })).toBe(PrintMessages.noCertificateTemplate);
  });
});

describe('a package reservation (issue 22)', () => {
  it('reads its end in Moscow time and what is left, and nothing once it has ended', async () => {
    const { reservationLeft, reservationTime, entryPaymentNote } = await import('./entry.ts');
    const until = '2026-11-26T03:47:00.000Z'; // 06:47 in Moscow
    expect(reservationTime(until)).toBe('06:47');
    expect(reservationLeft(until, Date.parse('2026-11-26T03:32:00.000Z'))).toBe('15:00');
    expect(reservationLeft(until, Date.parse('2026-11-26T03:46:58.400Z'))).toBe('00:02');
    expect(reservationLeft(until, Date.parse('2026-11-26T01:46:59.000Z'))).toBe('2:00:01');
    expect(reservationLeft(until, Date.parse(until))).toBeNull();
    expect(entryPaymentNote(4500, 'package', new Date(until))).toContain('до 06:47 по московскому времени');
  });
});

describe('paymentCanceledNote', () => {
  it('tells why, that nothing was taken, and what to do; a package says until when it is reserved', async () => {
    const { paymentCanceledNote } = await import('./entry.ts');
    const { formatRub } = await import('../common/format.ts');
    expect(paymentCanceledNote({ what: 'заявки № 2611-00001 «Вебинар»', sum: 1500, reason: 'insufficient_funds' })).toBe(
      `Оплата заявки № 2611-00001 «Вебинар» на ${formatRub(1500)} не прошла: недостаточно средств. Деньги не списаны. Оплатить можно снова в разделе «Мои заявки».`,
    );
    // An unknown reason reads as the bank's refusal; no reason, no explanation.
    expect(paymentCanceledNote({ what: 'заявки', sum: 10, reason: 'something_new' })).toContain('не прошла: банк отклонил платёж.');
    expect(paymentCanceledNote({ what: 'заявки', sum: 10 })).toContain('не прошла. Деньги не списаны.');
    expect(paymentCanceledNote({ what: 'пакета', sum: 5000, reservedUntil: new Date('2026-11-23T03:47:00Z') })).toContain(
      'Пакет забронирован за вами до 06:47 по московскому времени',
    );
  });
});

describe('paid statuses', () => {
  it('counts only paid (2) and done (3) as paid; not paid, «Возврат» (4) and unknown codes are unpaid', () => {
    expect([1, 2, 3, 4, 0, 99].map(isPaidStatus)).toEqual([false, true, true, false, false, false]);
  });
  it('a refunded entry prints nothing', () => {
    const c = { status: EntryStatus.refunded, deleted: false } as unknown as PrintContext;
    expect(printRefusal('certificate', c, 1)).toEqual({ status: 422, message: PrintMessages.entryRefunded });
    expect(printRefusal('program', c, 2)).toEqual({ status: 422, message: PrintMessages.entryRefunded });
  });
});
