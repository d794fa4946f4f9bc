import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PublicationMessages, type Publication } from '@edu/domain/publications/publication';
import { ApiError } from '../../../lib/api-client';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { PublicationViewModal } from './publication-view-modal';

// The calls of the window, replaced: the test checks what the window does with the server's answer.
const runAction = vi.fn();
const savePublication = vi.fn();
vi.mock('../api/manage-publication', () => ({
  runAction: (...args: unknown[]) => runAction(...args),
  savePublication: (...args: unknown[]) => savePublication(...args),
  addAuthor: vi.fn(),
  useInvalidatePublications: () => () => {},
}));
vi.mock('../api/get-publications', () => ({ usePublication: () => ({ data: undefined, refetch: vi.fn() }) }));
vi.mock('../api/get-publication-services', () => ({ usePublicationServices: () => ({ data: [] }) }));
vi.mock('../api/get-prices', () => ({ usePrices: () => ({ data: [], isPending: false }), priceFor: () => undefined, maxAuthors: () => 5 }));
vi.mock('../api/get-releases', () => ({ useReleases: () => ({ data: [] }) }));
vi.mock('../../../lib/dictionaries', () => ({ useDictionary: () => ({ data: [] }) }));
vi.mock('../../../lib/notify', () => ({ notifyError: vi.fn(), notifySuccess: vi.fn(), notifyInfo: vi.fn() }));
// tiptap is not what is tested here.
vi.mock('../../../components/rich-text-editor', () => ({ RichTextEditor: () => <textarea aria-label="Текст публикации" /> }));

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

const entry = { id: 7, number: '2611-0007', status: 2, is_paid: true, price: 1300, user: { id: 3, fio: 'Иванова Анна' } };
const publication = (paid: boolean): Publication => ({
  id: 11,
  title: 'Игровые технологии',
  text: '<p>Текст</p>',
  file: null,
  additionalFiles: [],
  url: null,
  url_contents: null,
  status: 1,
  statusLabel: 'Ожидает проверки',
  statusColor: 'yellow',
  entries: [{ ...entry, status: paid ? 2 : 1, is_paid: paid }],
  entry: { ...entry, status: paid ? 2 : 1, is_paid: paid },
  is_paid: paid,
  service: { id: 5, title: 'Интернет-публикация', dict_subtype_id: 5 },
  publication_has_file: false,
  release: null,
  release_id: null,
  is_journal: false,
  manager_comment: null,
  uniqueness: null,
  uniqueness_checked_at: null,
  uniqueness_state: null,
  matches: [],
  highlight: [],
  spans: [],
  dict_category_id: 2,
  type: 1,
  price_id: 1,
  authors_num: 1,
  price: 1300,
  authors: [{ id: 1, user_id: 3, fio: 'Иванова Анна', pending: false }],
  created_by: 3,
  created_at: '2026-11-20T10:00:00.000Z',
  created_at_formatted: '20.11.2026',
  can_edit: true,
  can_delete: true,
});

function open(p: Publication, onClose = vi.fn()) {
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false, enabled: false } } })}>
      <MantineProvider env="test">
        <PublicationViewModal publication={p} operator onClose={onClose} />
      </MantineProvider>
    </QueryClientProvider>,
  );
  return onClose;
}

const approveButton = () => screen.getByText('Одобрить').closest('button')!;

describe('«Одобрить» in the moderation window', () => {
  it('a refused approval shows the server’s message, not «Публикация одобрена!», and the window stays open', async () => {
    savePublication.mockResolvedValue({ message: PublicationMessages.saved });
    runAction.mockRejectedValue(new ApiError(422, 'Действие недоступно для публикации в статусе «Одобрена»'));
    const onClose = open(publication(true));
    fireEvent.click(approveButton());
    await waitFor(() => expect(notifyError).toHaveBeenCalledWith('Действие недоступно для публикации в статусе «Одобрена»'));
    expect(runAction).toHaveBeenCalledWith(11, { kind: 'accept', confirm_unpaid: false });
    expect(notifySuccess).not.toHaveBeenCalledWith(PublicationMessages.approved);
    expect(onClose).not.toHaveBeenCalled();
  });

  it('a paid one is approved at once and says so', async () => {
    savePublication.mockResolvedValue({ message: PublicationMessages.saved });
    runAction.mockResolvedValue({ message: PublicationMessages.statusChanged });
    const onClose = open(publication(true));
    expect(screen.getByTestId('publication-payment').textContent).toBe('Оплачена');
    fireEvent.click(approveButton());
    await waitFor(() => expect(notifySuccess).toHaveBeenCalledWith(PublicationMessages.approved));
    expect(onClose).toHaveBeenCalled();
  });

  it('an unpaid one shows «Не оплачена» and asks before approving; the approval then carries confirm_unpaid', async () => {
    savePublication.mockResolvedValue({ message: PublicationMessages.saved });
    runAction.mockResolvedValue({ message: PublicationMessages.statusChanged });
    open(publication(false));
    expect(screen.getByTestId('publication-payment').textContent).toBe('Не оплачена');
    expect(screen.getByTestId('publication-unpaid').textContent).toContain('2611-0007 не оплачена');
    fireEvent.click(approveButton());
    await screen.findByText(PublicationMessages.confirmUnpaidApprove);
    expect(runAction).not.toHaveBeenCalled();
    fireEvent.click(screen.getByText('Одобрить без оплаты').closest('button')!);
    await waitFor(() => expect(runAction).toHaveBeenCalledWith(11, { kind: 'accept', confirm_unpaid: true }));
    await waitFor(() => expect(notifySuccess).toHaveBeenCalledWith(PublicationMessages.approved));
  });
});
