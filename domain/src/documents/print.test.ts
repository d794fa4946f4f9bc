import { describe, expect, it } from 'vitest';
import { PrintMessages, printRefusal, type PrintContext } from './print.ts';

const base: PrintContext = {
  status: 3,
  deleted: false,
  isPublication: false,
  publicationStatus: null,
  contractNeeded: false,
  registrationNumber: null,
  certificateTemplateId: 1,
  programTemplateId: null,
  regListTemplateId: null,
  contractTemplateId: null,
  payType: 3,
  amount: 900,
};

describe('print rules', () => {
  it('certificate: done and (no contract or a registration number) and a template', () => {
    for (const status of [1, 2, 3])
      for (const contractNeeded of [false, true])
        for (const registrationNumber of [null, '2026-0001'])
          for (const certificateTemplateId of [null, 7]) {
            const c = { ...base, status, contractNeeded, registrationNumber, certificateTemplateId };
            const allowed = status === 3 && (!contractNeeded || registrationNumber !== null) && certificateTemplateId !== null;
            expect(printRefusal('certificate', c, 2) === null).toBe(allowed);
            expect(printRefusal('certificate-docx', c, 1) === null).toBe(allowed);
            expect(printRefusal('certificate-docx', c, 2)).toEqual({ status: 403, message: PrintMessages.operatorsOnly });
          }
  });
  it('publication certificates: paid or more and approved or published', () => {
    const p = { ...base, isPublication: true };
    expect(printRefusal('certificate', { ...p, status: 2, publicationStatus: 2 }, 2)).toBeNull();
    expect(printRefusal('certificate', { ...p, status: 2, publicationStatus: 4 }, 2)).toBeNull();
    expect(printRefusal('certificate', { ...p, status: 1, publicationStatus: 2 }, 2)?.message).toBe(PrintMessages.publicationNotReady);
    expect(printRefusal('certificate', { ...p, status: 3, publicationStatus: 1 }, 2)?.message).toBe(PrintMessages.publicationNotReady);
    expect(printRefusal('certificate', { ...p, status: 3, publicationStatus: null }, 2)?.message).toBe(PrintMessages.publicationNotReady);
  });
  it('program, registration list and contract need their templates; the contract a service that needs one', () => {
    expect(printRefusal('program', base, 1)?.message).toBe(PrintMessages.noProgramTemplate);
    expect(printRefusal('program', { ...base, status: 1, programTemplateId: 3 }, 2)).toBeNull();
    expect(printRefusal('registration-list', { ...base, regListTemplateId: 4 }, 2)).toBeNull();
    expect(printRefusal('contract', { ...base, contractTemplateId: 5 }, 2)?.message).toBe(PrintMessages.contractNotNeeded);
    expect(printRefusal('contract', { ...base, status: 1, contractNeeded: true, contractTemplateId: 5 }, 2)).toBeNull();
    expect(printRefusal('certificate', { ...base, deleted: true }, 1)?.message).toBe(PrintMessages.entryDeleted);
  });

  it('invoice: an unpaid entry with a sum; clients only when it is paid through a bank', () => {
    const unpaid = { ...base, status: 1, payType: 1, amount: 900 };
    expect(printRefusal('invoice', unpaid, 2)).toBeNull();
    expect(printRefusal('invoice', { ...unpaid, payType: 3 }, 2)?.message).toBe(PrintMessages.invoiceBankOnly);
    expect(printRefusal('invoice', { ...unpaid, payType: 3 }, 1)).toBeNull();
    expect(printRefusal('invoice', { ...unpaid, status: 2 }, 1)?.message).toBe(PrintMessages.invoicePaid);
    expect(printRefusal('invoice', { ...unpaid, amount: 0 }, 1)?.message).toBe(PrintMessages.invoiceFree);
    expect(printRefusal('invoice', { ...unpaid, deleted: true }, 1)?.message).toBe(PrintMessages.entryDeleted);
  });

  it('a missing template reads as "later" for a client and names the template for an operator (issue 19)', () => {
    const done = {
      ...base,
      status: 3,
      contractNeeded: true,
      registrationNumber: '1',
      certificateTemplateId: null,
      programTemplateId: null,
      regListTemplateId: null,
      contractTemplateId: null,
    };
    const client = (['certificate', 'program', 'registration-list', 'contract'] as const).map((k) => printRefusal(k, done, 2)?.message);
    const operator = (['certificate', 'program', 'registration-list', 'contract'] as const).map((k) => printRefusal(k, done, 1)?.message);
    expect(client).toEqual([PrintMessages.certificateLater, PrintMessages.programLater, PrintMessages.regListLater, PrintMessages.contractLater]);
    expect(operator).toEqual([
      PrintMessages.noCertificateTemplate,
      PrintMessages.noProgramTemplate,
      PrintMessages.noRegListTemplate,
      PrintMessages.noContractTemplate,
    ]);
    for (const m of client) expect(m).toMatch(/будет доступ(ен|на|но) позже$/);
    // Other refusals are the same for both.
    expect(printRefusal('certificate', { ...done, status: 2 }, 2)?.message).toBe(PrintMessages.notDone);
  });
});
