import { MantineProvider } from '@mantine/core';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PERSONAL_DATA_FIELD } from '@edu/domain/documents/print';
import { Role } from '@edu/domain/common/codes';
import { ApiError } from '../../../lib/api-client';
import { PrintPage } from './print-page';

// Issue 28: the print page shows a refusal for missing personal data with where to fill them.

const getPrintUrl = vi.fn();
// No early request in these tests (the tab's start is not run): the page asks itself.
vi.mock('../api/get-print-url', () => ({ getPrintUrl: (...args: unknown[]) => getPrintUrl(...args), takeEarlyPrint: () => null }));
let role: number = Role.user;
vi.mock('../../../lib/current-user', () => ({ useCurrentUser: () => ({ data: { id: 7, role } }) }));

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

const MESSAGE = 'Для печати документа заполните: паспортные данные, дата рождения';

function show(kind = 'contract') {
  render(
    <MantineProvider>
      <MemoryRouter initialEntries={[`/entry/5/print/${kind}`]}>
        <Routes>
          <Route path="/entry/:id?/print/:type?" element={<PrintPage />} />
        </Routes>
      </MemoryRouter>
    </MantineProvider>,
  );
}

describe('the print page', () => {
  it('a client reads which data are missing and gets a link to fill them', async () => {
    role = Role.user;
    getPrintUrl.mockRejectedValue(new ApiError(422, MESSAGE, { [PERSONAL_DATA_FIELD]: [MESSAGE] }));
    show();
    expect((await screen.findByTestId('print-needs-data')).textContent).toBe(MESSAGE);
    expect(screen.getByText(/вносят в разделе «Данные для договора»/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Заполнить данные' }).getAttribute('href')).toBe('/user/contract');
  });

  it('an operator reads where the client fills them, without the link', async () => {
    role = Role.operator;
    getPrintUrl.mockRejectedValue(new ApiError(422, MESSAGE, { [PERSONAL_DATA_FIELD]: [MESSAGE] }));
    show();
    expect((await screen.findByTestId('print-needs-data')).textContent).toBe(MESSAGE);
    expect(screen.getByText(/Клиент вносит их в личном кабинете/)).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Заполнить данные' })).toBeNull();
  });

  it('says the document is ready once its link comes (a Word file downloads and the tab stays)', async () => {
    role = Role.user;
    getPrintUrl.mockResolvedValue({ url: '#signed-link' });
    show('certificate-docx');
    expect((await screen.findByTestId('print-ready')).textContent).toContain('Документ готов');
    expect(screen.getByRole('link', { name: 'Открыть документ' }).getAttribute('href')).toBe('#signed-link');
    expect(screen.queryByText('Готовим документ…')).toBeNull();
  });

  it('any other refusal is shown as before', async () => {
    role = Role.user;
    getPrintUrl.mockRejectedValue(new ApiError(422, 'Договор будет доступен позже'));
    show();
    expect(await screen.findByText('Договор будет доступен позже')).toBeTruthy();
    expect(screen.queryByTestId('print-needs-data')).toBeNull();
  });
});
