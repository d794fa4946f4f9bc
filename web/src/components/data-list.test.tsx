import { MantineProvider } from '@mantine/core';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SortSelect } from './data-list';

afterEach(cleanup);

const options = [
  { name: 'last_name', label: 'ФИО' },
  { name: 'created_at', label: 'Дата регистрации' },
];

const renderSelect = (props: { sort?: string; defaultSort?: string; onSort?: (s: string) => void }) =>
  render(
    <MantineProvider>
      <SortSelect options={options} onSort={props.onSort ?? (() => {})} sort={props.sort} defaultSort={props.defaultSort} />
    </MantineProvider>,
  );

const shown = () => (screen.getByLabelText('Сортировка', { selector: 'input' }) as HTMLInputElement).value;

describe('the sort choice above the cards', () => {
  it('names the list’s own order when no column sorts it (never blank)', () => {
    renderSelect({});
    expect(shown()).toBe('По умолчанию');
  });

  it('names a default order by a column without the extra choice', () => {
    renderSelect({ defaultSort: '-created_at' });
    expect(shown()).toBe('Дата регистрации ↓');
  });

  it('shows the sort of the address bar and changes it', () => {
    const onSort = vi.fn();
    renderSelect({ sort: 'last_name', onSort });
    expect(shown()).toBe('ФИО ↑');
    fireEvent.click(screen.getByLabelText('Сортировка', { selector: 'input' }));
    fireEvent.click(screen.getByRole('option', { name: 'ФИО ↓' }));
    expect(onSort).toHaveBeenLastCalledWith('-last_name');
  });

  it('choosing «По умолчанию» goes back to the list’s own order', () => {
    const onSort = vi.fn();
    renderSelect({ sort: '-last_name', onSort });
    expect(shown()).toBe('ФИО ↓');
    fireEvent.click(screen.getByLabelText('Сортировка', { selector: 'input' }));
    fireEvent.click(screen.getByRole('option', { name: 'По умолчанию' }));
    expect(onSort).toHaveBeenLastCalledWith('');
  });

  it('an unknown sort in the address bar reads as the default', () => {
    renderSelect({ sort: 'bogus' });
    expect(shown()).toBe('По умолчанию');
  });
});
