import { useLayoutEffect, type ReactNode } from 'react';
import { act, renderHook, waitFor } from '@testing-library/react';
import { MemoryRouter, useLocation } from 'react-router';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { useDraftParams, useListParams } from './use-list-params';

const schema = z.object({
  fio: z.string().optional(),
  role: z.enum(['1', '2', '3'], { error: 'Неизвестная роль' }).optional(),
  page: z.string().optional(),
  per_page: z.string().optional(),
});

function setup(url: string, defaults: Record<string, string> = {}) {
  const wrapper = ({ children }: { children: ReactNode }) => <MemoryRouter initialEntries={[url]}>{children}</MemoryRouter>;
  return renderHook(() => ({ params: useListParams(schema, defaults), location: useLocation() }), { wrapper });
}

describe('useListParams', () => {
  it('reads filters and paging from the address bar; a value the schema rejects is not sent', () => {
    const { result } = setup('/manager/users?fio=Иван&role=9&page=3');
    expect(result.current.params.values).toEqual({ fio: 'Иван', role: '9' });
    expect(result.current.params.query).toEqual({ fio: 'Иван', page: '3', per_page: '15' });
    // The page is told why: the schema's message for the refused filter.
    expect(result.current.params.refused).toEqual({ role: 'Неизвестная роль' });
    expect(result.current.params.page).toBe(3);
    expect(result.current.params.activeCount).toBe(2);
  });

  it('a filter change goes back to page 1; an empty value removes the filter', () => {
    const { result } = setup('/list?fio=Иван&page=4');
    act(() => result.current.params.set('role', '2'));
    expect(new URLSearchParams(result.current.location.search).get('page')).toBeNull();
    expect(result.current.params.query).toMatchObject({ fio: 'Иван', role: '2', page: '1' });
    act(() => result.current.params.set('fio', ''));
    expect(result.current.params.values).toEqual({ role: '2' });
  });

  it('two filters set before the list renders again are both kept (a date, then a name typed at once)', () => {
    const { result } = setup('/list');
    const { set } = result.current.params;
    act(() => {
      set('fio', 'Иван');
      set('role', '2');
    });
    expect(result.current.params.values).toEqual({ fio: 'Иван', role: '2' });
  });

  it('paging and reset keep what they should', () => {
    const { result } = setup('/list?role=1');
    act(() => result.current.params.setPage(2));
    expect(result.current.params.page).toBe(2);
    act(() => result.current.params.setPerPage(30));
    expect(result.current.params.query).toMatchObject({ page: '1', per_page: '30', role: '1' });
    act(() => result.current.params.reset());
    expect(result.current.params.values).toEqual({});
    expect(result.current.params.perPage).toBe(30);
  });

  it('defaults count as values but not as active filters', () => {
    const { result } = setup('/list', { role: '2' });
    expect(result.current.params.query.role).toBe('2');
    expect(result.current.params.activeCount).toBe(0);
  });

  it('a value typed before the first effects run still reaches the address bar (a busy machine)', async () => {
    const wrapper = ({ children }: { children: ReactNode }) => <MemoryRouter initialEntries={['/manager/entry']}>{children}</MemoryRouter>;
    let typed = false;
    const { result } = renderHook(
      () => {
        const params = useListParams(schema);
        const [draft, change] = useDraftParams(
          params,
          (v) => ({ fio: v.fio ?? '' }),
          (d) => ({ fio: d.fio }),
          20,
        );
        // The keystroke lands after the first render is on screen and before its effects ran
        // (a layout effect runs before them).
        useLayoutEffect(() => {
          if (typed) return;
          typed = true;
          change({ fio: 'Иванова' });
        });
        return { draft, location: useLocation() };
      },
      { wrapper },
    );
    await waitFor(() => expect(new URLSearchParams(result.current.location.search).get('fio')).toBe('Иванова'));
    expect(result.current.draft).toEqual({ fio: 'Иванова' });
  });
});
