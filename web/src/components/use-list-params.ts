import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useDebouncedValue } from '@mantine/hooks';
import { useSearchParams } from 'react-router';
import type { z } from 'zod';
import { DEFAULT_PAGE_SIZE } from '@edu/domain/common/codes';

/** What a list page keeps in the address bar: filters, page and page size, as strings. */
export type ListParamValues = Record<string, string>;

export interface ListParams {
  /** The filter values as typed (what the inputs show). */
  values: ListParamValues;
  /**
   * The query to send: the address-bar values the list's zod schema accepts (a value it rejects,
   * e.g. a hand-edited `?role=9`, is left out), with page and per_page.
   */
  query: ListParamValues;
  /**
   * The address-bar filters the schema refused, by name, with the server's Russian message (the
   * same schema): the page shows them instead of a list that ignores them.
   */
  refused: Record<string, string>;
  page: number;
  perPage: number;
  /** Sets one filter (an empty string removes it) and goes back to page 1. */
  set: (name: string, value: string) => void;
  /** Sets several filters at once and goes back to page 1. */
  setMany: (values: ListParamValues) => void;
  setPage: (page: number) => void;
  setPerPage: (perPage: number) => void;
  /** Clears every filter (keeps the page size and the sort). */
  reset: () => void;
  /** How many filters hold a value (the badge of the narrow filter toggle). */
  activeCount: number;
}

const PAGING = new Set(['page', 'per_page']);

/**
 * Drops the values the schema rejects, one by one, so one bad value does not empty the list; answers
 * what is kept and each dropped value's message.
 */
function accepted(schema: z.ZodType | undefined, raw: ListParamValues): { kept: ListParamValues; refused: Record<string, string> } {
  const refused: Record<string, string> = {};
  if (!schema) return { kept: raw, refused };
  const kept = { ...raw };
  for (let guard = 0; guard < 20; guard++) {
    const result = schema.safeParse(kept);
    if (result.success) return { kept, refused };
    let removed = false;
    for (const issue of result.error.issues) {
      const key = String(issue.path[0] ?? '');
      if (key in kept) {
        delete kept[key];
        refused[key] ??= issue.message;
        removed = true;
      }
    }
    if (!removed) return { kept: {}, refused };
  }
  return { kept, refused };
}

/**
 * The state of an operator list kept in the URL (`?fio=Иван&role=2&page=3`), so a filtered list
 * can be reloaded, bookmarked and sent to a colleague, and Back returns to it. `schema` is the
 * list's query schema from domain/ (the one the server validates with).
 */
export function useListParams(schema?: z.ZodType, defaults: ListParamValues = {}): ListParams {
  const [params, setParams] = useSearchParams();
  const search = params.toString();

  const state = useMemo(() => {
    const raw: ListParamValues = { ...defaults };
    for (const [key, value] of new URLSearchParams(search)) if (value !== '') raw[key] = value;
    const { kept: query, refused } = accepted(schema, raw);
    // Paging values are not filters: a bad page number quietly becomes page 1.
    for (const key of PAGING) delete refused[key];
    const page = Math.max(1, Number(query.page) || 1);
    const perPage = Number(query.per_page) || DEFAULT_PAGE_SIZE;
    const values: ListParamValues = {};
    for (const [key, value] of Object.entries(raw)) if (!PAGING.has(key)) values[key] = value;
    return { values, query: { ...query, page: String(page), per_page: String(perPage) }, refused, page, perPage };
    // defaults are literals of the page; their identity does not matter.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [search, schema]);

  // The address bar as last set here: React Router's `setParams(prev => …)` hands over the params
  // of the last render, so a second change before the list renders again (a date committed, then a
  // name typed at once) would drop the first.
  const latest = useRef(params);
  useEffect(() => {
    latest.current = params;
  }, [params]);
  const update = useCallback(
    (change: (next: URLSearchParams) => void) => {
      const next = new URLSearchParams(latest.current);
      change(next);
      latest.current = next;
      setParams(next, { replace: true });
    },
    [setParams],
  );

  const setMany = useCallback(
    (values: ListParamValues) =>
      update((next) => {
        for (const [name, value] of Object.entries(values)) {
          if (value === '') next.delete(name);
          else next.set(name, value);
        }
        next.delete('page');
      }),
    [update],
  );
  const set = useCallback((name: string, value: string) => setMany({ [name]: value }), [setMany]);
  const setPage = useCallback((page: number) => update((next) => (page > 1 ? next.set('page', String(page)) : next.delete('page'))), [update]);
  const setPerPage = useCallback(
    (perPage: number) =>
      update((next) => {
        if (perPage === DEFAULT_PAGE_SIZE) next.delete('per_page');
        else next.set('per_page', String(perPage));
        next.delete('page');
      }),
    [update],
  );
  const reset = useCallback(
    () =>
      update((next) => {
        for (const key of [...next.keys()]) if (key !== 'per_page' && key !== 'sort') next.delete(key);
      }),
    [update],
  );

  const activeCount = Object.entries(state.values).filter(([key, v]) => key !== 'sort' && v !== '' && defaults[key] !== v).length;
  return { ...state, set, setMany, setPage, setPerPage, reset, activeCount };
}

/**
 * Filter inputs that show what is typed at once and write the address bar after a pause (navigations
 * run as transitions: inputs bound to the URL itself lag, and a masked one loses keystrokes). A change
 * of the URL from outside (Back, a reset, a link with ?number=…) shows in the inputs unless the user
 * is mid-typing. `read` takes the inputs from the URL's values, `write` gives the URL's values of the
 * inputs ('' removes a key). Answers the inputs, their setter and the inputs after the pause (what
 * a list should query).
 */
export function useDraftParams<T>(
  params: ListParams,
  read: (values: ListParamValues) => T,
  write: (draft: T) => ListParamValues,
  delayMs = 300,
): [T, (next: T) => void, T] {
  const urlKey = JSON.stringify(read(params.values));
  const [draft, setDraft] = useState<T>(() => JSON.parse(urlKey) as T);
  const typing = useRef(false);
  const [settled] = useDebouncedValue(draft, delayMs);
  useEffect(() => {
    if (!typing.current) setDraft(JSON.parse(urlKey) as T);
  }, [urlKey]);
  const { setMany } = params;
  // The inputs after the pause as last acted on: the effect below acts when they change, never on
  // its first run (on a busy machine a keystroke can come before the first effects run, and that
  // run must not take the typing for done).
  const acted = useRef(settled);
  useEffect(() => {
    if (acted.current === settled) return;
    acted.current = settled;
    if (!typing.current) return;
    typing.current = false;
    if (JSON.stringify(settled) !== urlKey) setMany(write(settled));
    // Only a pause in typing writes the URL (urlKey and write are read as they are then).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [settled]);
  const change = useCallback((next: T) => {
    typing.current = true;
    setDraft(next);
  }, []);
  return [draft, change, settled];
}
