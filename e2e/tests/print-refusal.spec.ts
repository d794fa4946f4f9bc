import { expect, test, type Page } from '../support/test.ts';
import { shot } from '../support/screens.ts';
import { clientWithEntry, DEMO_OPERATOR, DEMO_PASSWORD, login } from '../support/session.ts';
import { PHONE, WIDE } from '../support/ui.ts';

// Issue 28: a contract is not printed for a client without passport data. The client's entry list and
// the operator's entry menu open the print page, which shows the refusal's Russian message and where
// the data are filled, instead of a document with blanks (decision 031).

const MESSAGE = 'Для печати документа заполните: дата рождения, паспортные данные, адрес регистрации, СНИЛС';

/** Clicks a print menu item (a link that opens a new tab) and returns that tab. */
async function openedTab(page: Page, click: () => Promise<void>): Promise<Page> {
  const [tab] = await Promise.all([page.context().waitForEvent('page'), click()]);
  await tab.waitForLoadState();
  return tab;
}

test('a contract without the client passport data: the refusal names them, on the client and the operator screens', async ({
  page,
  request,
  browser,
  baseURL,
}) => {
  // A fresh course client (demo course): no birthday, passport, address or SNILS yet.
  const { entry, email, password } = await clientWithEntry(request, 'refusal', { lastName: 'Безпаспортова', firstName: 'Ирина', middleName: 'Олеговна' });

  await login(page, email, password);
  await page.goto('/user/entry');
  const row = page.getByTestId('entry-row').filter({ hasText: entry.number });
  await row.getByRole('button', { name: `Печать документов заявки ${entry.number}` }).click();
  const tab = await openedTab(page, () => page.getByRole('menuitem', { name: 'Договор' }).click());
  await expect(tab.getByTestId('print-needs-data')).toHaveText(MESSAGE);
  await expect(tab.getByText('вносят в разделе «Данные для договора»')).toBeVisible();
  await tab.setViewportSize(WIDE);
  await shot(tab, 'print-refusal-client-desktop');
  await tab.setViewportSize(PHONE);
  await shot(tab, 'print-refusal-client-mobile');
  // «Заполнить данные» leads to the wizard.
  await tab.getByRole('link', { name: 'Заполнить данные' }).click();
  await expect(tab.getByRole('heading', { name: 'Данные для договора' })).toBeVisible();
  await tab.close();

  const operatorContext = await browser.newContext({ baseURL, viewport: WIDE });
  const opPage = await operatorContext.newPage();
  await login(opPage, DEMO_OPERATOR, DEMO_PASSWORD);
  await opPage.goto(`/manager/entry?number=${entry.number}`);
  const opRow = opPage.getByTestId('entry-row').filter({ hasText: entry.number });
  await opRow.getByRole('button', { name: `Действия с заявкой ${entry.number}` }).click();
  // The print item says that it prints («Печать договора»), apart from «Открыть договор» (the contract's window).
  const opTab = await openedTab(opPage, () => opPage.getByRole('menuitem', { name: 'Печать договора' }).click());
  await expect(opTab.getByTestId('print-needs-data')).toHaveText(MESSAGE);
  await expect(opTab.getByText('Клиент вносит их в личном кабинете')).toBeVisible();
  await expect(opTab.getByRole('link', { name: 'Заполнить данные' })).toHaveCount(0);
  await opTab.setViewportSize(WIDE);
  await shot(opTab, 'print-refusal-operator-desktop');
  await opTab.setViewportSize(PHONE);
  await shot(opTab, 'print-refusal-operator-mobile');
  await operatorContext.close();
});
