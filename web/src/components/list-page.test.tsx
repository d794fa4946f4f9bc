import { MantineProvider } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Paginated } from '@edu/domain/common/pagination';
import { ListPage } from './list-page';
import { useListParams } from './use-list-params';

afterEach(cleanup);

const schema = z.object({
  entity_id: z.coerce.number({ error: 'Введите число' }).int({ error: 'Введите число' }).optional(),
  page: z.string().optional(),
  per_page: z.string().optional(),
});

// The rows the list had before the filter changed (kept as placeholder data while the next page loads).
const stale = {
  data: { data: [{ id: 1, title: 'Старая строка' }], meta: { current_page: 1, last_page: 14, total: 197, per_page: 15 } },
  isPending: false,
  isError: false,
  isPlaceholderData: true,
} as unknown as UseQueryResult<Paginated<{ id: number; title: string }>>;

function Page() {
  const params = useListParams(schema);
  return (
    <ListPage
      title="Журнал изменений"
      filters={[{ name: 'entity_id', label: 'Id', kind: 'text' }]}
      params={params}
      list={stale}
      columns={[{ key: 'title', label: 'Название', render: (r) => r.title }]}
      testId="logs"
    />
  );
}

function renderAt(url: string) {
  return render(
    <MantineProvider env="test">
      <MemoryRouter initialEntries={[url]}>
        <Page />
      </MemoryRouter>
    </MantineProvider>,
  );
}

describe('ListPage', () => {
  it('a refused filter shows its message, not the rows and total of a list that ignores it', () => {
    renderAt('/manager/logs?entity_id=2611-00071');
    // At the field, and instead of the list, named by the field's label.
    expect(screen.getByText('Введите число')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('Id: Введите число');
    expect(screen.queryByText('Старая строка')).toBeNull();
    expect(screen.queryByTestId('logs-total')).toBeNull();
  });

  it('an accepted filter shows the list and its total', () => {
    renderAt('/manager/logs?entity_id=71');
    expect(screen.getAllByText('Старая строка').length).toBeGreaterThan(0);
    expect(screen.getByTestId('logs-total').textContent).toContain('197');
  });
});
