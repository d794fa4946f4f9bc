import { expect, test } from '../support/test.ts';
import { bearer, DEMO_PASSWORD, DEMO_OPERATOR, login, tokenOf } from '../support/session';
import { shot } from '../support/screens';
import { PHONE, WIDE } from '../support/ui';

// Issue 30: a Word certificate (an operator's print) downloads without leaving the print tab; the tab then says the
// document is ready (with a link to it again), instead of «Готовим документ…» for ever.
for (const size of [WIDE, PHONE]) {
  test(`the print tab says a downloaded Word certificate is ready, at ${size.width} px`, async ({ page, request }) => {
    const auth = bearer(await tokenOf(request, DEMO_OPERATOR, DEMO_PASSWORD));
    const list = await request.get('/api/entry?per_page=100', { headers: auth });
    expect(list.status(), await list.text()).toBe(200);
    const entries = ((await list.json()) as { data: Array<{ id: number; printable: string[] }> }).data;
    const entry = entries.find((e) => e.printable.includes('certificate-docx'));
    expect(entry, 'an entry with a Word certificate (operators print those)').toBeTruthy();

    await page.setViewportSize(size);
    await login(page, DEMO_OPERATOR, DEMO_PASSWORD);
    const download = page.waitForEvent('download', { timeout: 90_000 });
    await page.goto(`/entry/${entry!.id}/print/certificate-docx`);
    expect((await download).suggestedFilename()).toMatch(/\.docx$/);
    await expect(page.getByTestId('print-ready')).toContainText('Документ готов');
    await expect(page.getByRole('link', { name: 'Открыть документ' })).toHaveAttribute('href', /\/api\/file\/signed/);
    await shot(page, `print-ready-${size.width}`);
  });
}
