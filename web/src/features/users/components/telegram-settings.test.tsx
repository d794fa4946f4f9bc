import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { TelegramMessages, type TelegramState } from '@edu/domain/telegram/telegram';
import { telegramKey } from '../api/telegram-state';
import { TelegramSettings } from './telegram-settings';

afterEach(cleanup);

const base: TelegramState = { configured: true, linked: false, username: null, linked_at: null, daily_summary: false, can_summary: false };

/** The block with the state the server answered (kept fresh, so nothing is fetched). */
function show(state: TelegramState) {
  const client = new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
  client.setQueryData(telegramKey, state);
  render(
    <MantineProvider>
      <QueryClientProvider client={client}>
        <TelegramSettings />
      </QueryClientProvider>
    </MantineProvider>,
  );
}

describe('the «Telegram» settings block', () => {
  it('without a bot at the centre says so and offers no button', () => {
    show({ ...base, configured: false });
    expect(screen.getByText(TelegramMessages.notConfigured)).toBeTruthy();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('offers «Подключить Telegram» while no chat is linked', () => {
    show(base);
    expect(screen.getByRole('button', { name: TelegramMessages.connect })).toBeTruthy();
    expect(screen.queryByRole('switch')).toBeNull();
  });

  it('linked: says «подключён» with the @username, offers «Отключить»; the summary switch only for operators', () => {
    show({ ...base, linked: true, username: 'anna', linked_at: '2026-11-29T10:00:00.000Z' });
    expect(screen.getByText(TelegramMessages.linked)).toBeTruthy();
    expect(screen.getByText(/@anna/)).toBeTruthy();
    expect(screen.getByRole('button', { name: TelegramMessages.disconnect })).toBeTruthy();
    expect(screen.queryByRole('switch')).toBeNull();
    cleanup();
    show({ ...base, linked: true, can_summary: true, daily_summary: true });
    expect((screen.getByRole('switch') as HTMLInputElement).checked).toBe(true);
    expect(screen.getByText(TelegramMessages.summaryLabel)).toBeTruthy();
  });
});
