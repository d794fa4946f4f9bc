import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Publication, PublicationCheckState, UniquenessState } from '@edu/domain/publications/publication';
import { usePublication } from './get-publications';

// The server, replaced by what it answers now: the test checks which calls the hook makes.
const get = vi.fn();
vi.mock('../../../lib/api-client', () => ({ api: { get: (...args: unknown[]) => get(...args) } }));

const LONG_TEXT = `<p>${'слово '.repeat(80_000)}</p>`;
let server: { state: UniquenessState | null; uniqueness: number | null };

function answer(path: string) {
  if (path === '/api/publication/11/uniqueness-state') {
    const data: PublicationCheckState = { id: 11, uniqueness: server.uniqueness, uniqueness_checked_at: null, uniqueness_state: server.state };
    return Promise.resolve({ data });
  }
  if (path === '/api/publication/11') {
    return Promise.resolve({ data: { id: 11, text: LONG_TEXT, uniqueness: server.uniqueness, uniqueness_state: server.state } as Partial<Publication> });
  }
  return Promise.reject(new Error(`unexpected call ${path}`));
}

const calls = (path: string) => get.mock.calls.filter(([p]) => p === path).length;

beforeEach(() => {
  vi.useFakeTimers();
  get.mockImplementation(answer);
  server = { state: 'queued', uniqueness: null };
});

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.clearAllMocks();
});

function wrapper({ children }: { children: ReactNode }) {
  return <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>{children}</QueryClientProvider>;
}

describe('usePublication while the uniqueness check waits or runs', () => {
  it('polls the check state without the text, shows queued → running from it, and reads the publication again once the check is done', async () => {
    const { result } = renderHook(() => usePublication(11), { wrapper });
    await vi.waitFor(() => expect(result.current.data?.uniqueness_state).toBe('queued'));
    expect(calls('/api/publication/11')).toBe(1);

    // Several polls while it waits: none reads the text again.
    await vi.advanceTimersByTimeAsync(3 * 3000);
    expect(calls('/api/publication/11/uniqueness-state')).toBeGreaterThanOrEqual(3);
    expect(calls('/api/publication/11')).toBe(1);

    server.state = 'running';
    await vi.advanceTimersByTimeAsync(3000);
    await vi.waitFor(() => expect(result.current.data?.uniqueness_state).toBe('running'));
    expect(calls('/api/publication/11')).toBe(1);

    server = { state: null, uniqueness: 87 };
    await vi.advanceTimersByTimeAsync(3000);
    await vi.waitFor(() => expect(result.current.data?.uniqueness).toBe(87));
    expect(result.current.data?.uniqueness_state).toBeNull();
    expect(calls('/api/publication/11')).toBe(2);

    // Checked: no more polling.
    const polls = calls('/api/publication/11/uniqueness-state');
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls('/api/publication/11/uniqueness-state')).toBe(polls);
  });

  it('does not poll a publication whose check is done', async () => {
    server = { state: null, uniqueness: 95 };
    const { result } = renderHook(() => usePublication(11), { wrapper });
    await vi.waitFor(() => expect(result.current.data?.uniqueness).toBe(95));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls('/api/publication/11/uniqueness-state')).toBe(0);
    expect(calls('/api/publication/11')).toBe(1);
  });
});
