import { useState, type ReactNode } from 'react';
import { Alert, Button, EmptyState, Group, Paper, Skeleton, Stack, Tabs, Text, Title } from '@mantine/core';
import { IconClipboardList, IconCreditCard, IconFileSpreadsheet, IconTag } from '@tabler/icons-react';
import { Link, useNavigate, useParams } from 'react-router';
import { Messages } from '@edu/domain/common/messages';
import { totalLabel } from '@edu/domain/common/pagination';
import { EntryMessages, entryListQuery, type Entry } from '@edu/domain/entries/entry';
import { useDictionary } from '../../../lib/dictionaries';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useNarrow } from '../../../lib/use-narrow';
import { ListPagination } from '../../../components/list-pagination';
import { useDraftParams, useListParams } from '../../../components/use-list-params';
import { useCurrentUser } from '../../../lib/current-user';
import { errorMessage } from '../../../lib/api-client';
import { notifyError } from '../../../lib/notify';
import { useEntries, type EntryFilters } from '../api/get-entries';
import { useExportEntries } from '../api/export-entries';
import { EditEntryModal } from '../components/edit-entry-modal';
import { completeDate, EntriesFilters, emptyEntryFilters, type EntryFilterValues } from '../components/entries-filters';
import { EntriesTable } from '../components/entries-table';
import { ENTRY_DEFAULT_SORT, OperatorEntriesTable } from '../components/operator-entries-table';
import { SortSelect } from '../../../components/data-list';
import { EntryCards } from '../components/entry-cards';
import type { EntryAction } from '../components/entry-actions';
import { CompleteModal, HistoryModal, MemberModal, OperatorEditModal, OperatorPayModal, RestoreModal } from '../components/operator-entry-modals';
import { RemoveEntryModal } from '../components/remove-entry-modal';
import { ThesisModal } from '../components/thesis-modal';

type Tab = 'entries' | 'payments';

interface EntriesPageProps {
  /** 'user': /user/entry, the signed-in user's own entries. 'manager': /manager/entry, every client's. */
  mode: 'user' | 'manager';
  /** The 'Платежи' tab, composed in app/ from the payments feature. */
  paymentsTab: ReactNode;
  /** The operator's 'Публикация' modal of an entry (the publications feature, composed in app/). */
  renderPublication?: (publicationId: number | null, onClose: () => void) => ReactNode;
  /** The operator's 'Договор' modal of an entry (the contracts feature, composed in app/). */
  renderContract?: (entry: Entry | null, onClose: () => void) => ReactNode;
}

type Renderers = Pick<EntriesPageProps, 'renderPublication' | 'renderContract'>;

/** /user/entry[/:from] (spec 01 §2 My entries) and /manager/entry (spec 02 §2): tabs 'Заявки' and 'Платежи'. */
export function EntriesPage({ mode, paymentsTab, renderPublication, renderContract }: EntriesPageProps) {
  const title = mode === 'manager' ? 'Заявки' : 'Мои заявки';
  const base = mode === 'manager' ? '/manager/entry' : '/user/entry';
  useDocumentTitle(title);
  const { from } = useParams();
  const navigate = useNavigate();
  const tab: Tab = from === 'payments' ? 'payments' : 'entries';
  return (
    <Stack gap="lg">
      <Title order={2}>{title}</Title>
      <Tabs value={tab} onChange={(v) => navigate(v === 'payments' ? `${base}/payments` : base, { replace: true })} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="entries" leftSection={<IconClipboardList size={16} />}>
            Заявки
          </Tabs.Tab>
          <Tabs.Tab value="payments" leftSection={<IconCreditCard size={16} />}>
            Платежи
          </Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="entries" pt="md">
          <EntriesTab manager={mode === 'manager'} renderPublication={renderPublication} renderContract={renderContract} />
        </Tabs.Panel>
        <Tabs.Panel value="payments" pt="md">
          {paymentsTab}
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

/** The filter inputs from the address bar (`?number=&type=&service=&status=&deleted=1&fio=&date=`). */
function filterValuesOf(p: Record<string, string>): EntryFilterValues {
  return {
    ...emptyEntryFilters,
    number: p.number ?? '',
    type: p.type ?? null,
    service: p.service ?? '',
    status: p.status ?? null,
    deleted: p.deleted === '1' ? 'deleted' : 'all',
    fio: p.fio ?? '',
    date: p.date ?? '',
    overdue: p.overdue === '1',
  };
}

/** The address-bar form of the filter inputs (an empty value removes its key). */
function filterParamsOf(v: EntryFilterValues): Record<string, string> {
  return {
    number: v.number,
    type: v.type ?? '',
    service: v.service,
    status: v.status ?? '',
    deleted: v.deleted === 'deleted' ? '1' : '',
    fio: v.fio,
    date: v.date,
    overdue: v.overdue ? '1' : '',
  };
}

function hasFilters(f: EntryFilterValues): boolean {
  return Boolean(f.number.trim() || f.type || f.service.trim() || f.status || f.deleted !== 'all' || f.fio.trim() || f.date || f.overdue);
}

/** The columns the operators' cards can be sorted by (the table's headers sort the same). */
const sortOptions = [
  { name: 'created_at', label: 'Создана' },
  { name: 'number', label: 'Номер' },
  { name: 'fio', label: 'Клиент' },
  { name: 'service', label: 'Мероприятие' },
  { name: 'status', label: 'Статус' },
  { name: 'price', label: 'Цена' },
];

/** `?sort=` when the server accepts it (a hand-edited value is ignored, not sent). */
const acceptedSort = (value: string | undefined) => {
  const parsed = entryListQuery.shape.sort.safeParse(value);
  return parsed.success ? parsed.data : undefined;
};

function EntriesTab({ manager, renderPublication, renderContract }: { manager: boolean } & Renderers) {
  const me = useCurrentUser();
  const narrow = useNarrow();
  const types = useDictionary('dict_service_types');
  // Filters, page and page size live in the address bar (a reload or Back keeps them; a
  // notification leads here with ?number=…, and the list opens filtered to that entry).
  const params = useListParams();
  const { page, perPage, setPage, setPerPage } = params;
  const [values, setValues, debounced] = useDraftParams(params, filterValuesOf, filterParamsOf);
  const [action, setAction] = useState<{ kind: EntryAction; entry: Entry } | null>(null);

  const filters: EntryFilters = {
    number: debounced.number,
    type: debounced.type ? Number(debounced.type) : undefined,
    service: debounced.service,
    status: debounced.status ? Number(debounced.status) : undefined,
    deleted: debounced.deleted === 'deleted',
    // An operator's own cabinet shows their own entries; the manager list shows everyone's.
    created_by: manager ? undefined : me.data?.id,
    fio: manager ? debounced.fio : undefined,
    date: manager ? completeDate(debounced.date) : undefined,
    overdue: manager && debounced.overdue ? true : undefined,
    // Operators sort by a column (kept in the address bar like the filters); the export follows it.
    sort: manager ? acceptedSort(params.values.sort) : undefined,
    page,
    per_page: perPage,
  };
  const list = useEntries(filters);
  const exporting = useExportEntries();
  const entries = list.data?.data ?? [];
  const close = () => setAction(null);
  const navigate = useNavigate();
  // The article of a paid publication entry: the publication form with the entry chosen.
  const onAction = (kind: EntryAction, entry: Entry) => (kind === 'article' ? navigate(`/user/publication?entry=${entry.id}`) : setAction({ kind, entry }));
  // The modals that act on the entry read it fresh from the list (a contract accepted in it shows at once).
  const current = (kind: EntryAction) => (action?.kind === kind ? (entries.find((e) => e.id === action.entry.id) ?? action.entry) : null);

  return (
    <Stack gap="md">
      {list.data?.meta.theses_awaited && (
        <Alert color="orange" variant="light" icon={<IconTag size={20} />} title={EntryMessages.thesesBanner} data-testid="theses-banner">
          Нажмите кнопку с тегом в строке заявки, чтобы добавить тезисы.
        </Alert>
      )}

      <EntriesFilters value={values} onChange={setValues} types={types.data ?? []} manager={manager} />

      {manager && list.data && (
        <Group justify="space-between" gap="sm">
          <Text size="sm" c="dimmed" data-testid="entries-total">
            Всего: {totalLabel(list.data.meta.total)}
          </Text>
          <Button
            size="xs"
            variant="light"
            leftSection={<IconFileSpreadsheet size={16} />}
            loading={exporting.isPending}
            onClick={() => exporting.mutate(filters, { onError: (e) => notifyError(errorMessage(e)) })}
          >
            Скачать Excel
          </Button>
        </Group>
      )}

      {list.isPending ? (
        <Stack gap="sm" aria-busy="true">
          {[0, 1, 2].map((i) => (
            <Skeleton key={i} h={64} radius="md" />
          ))}
        </Stack>
      ) : list.isError ? (
        <Paper p="xl" radius="md">
          <Text c="red.7">{Messages.serverError}</Text>
        </Paper>
      ) : entries.length === 0 ? (
        hasFilters(values) || manager ? (
          <Paper p="xl" radius="md">
            <Text c="dimmed" ta="center">
              {Messages.nothingFound}
            </Text>
          </Paper>
        ) : (
          <Paper p="xl" radius="md">
            <EmptyState icon={<IconClipboardList size={28} />} variant="light" title={EntryMessages.noApplications} data-testid="entries-empty">
              <EmptyState.Actions>
                <Button component={Link} to="/user/service">
                  Перейти к услугам
                </Button>
              </EmptyState.Actions>
            </EmptyState>
          </Paper>
        )
      ) : (
        <Paper
          p={narrow ? 0 : 'xs'}
          radius="md"
          withBorder={!narrow}
          bg={narrow ? 'transparent' : undefined}
          style={{ opacity: list.isPlaceholderData ? 0.6 : 1 }}
        >
          {narrow ? (
            <Stack gap="sm">
              {manager && (
                <SortSelect options={sortOptions} sort={filters.sort} defaultSort={ENTRY_DEFAULT_SORT} onSort={(value) => params.set('sort', value)} />
              )}
              <EntryCards entries={entries} showClient={manager} onAction={onAction} flat={Boolean(filters.sort) && filters.sort !== ENTRY_DEFAULT_SORT} />
            </Stack>
          ) : manager ? (
            <OperatorEntriesTable entries={entries} onAction={onAction} sort={filters.sort} onSort={(value) => params.set('sort', value)} />
          ) : (
            <EntriesTable entries={entries} onAction={onAction} />
          )}
        </Paper>
      )}

      <ListPagination meta={list.data?.meta} onPage={setPage} onPerPage={setPerPage} />

      {manager ? (
        <>
          <OperatorEditModal entry={action?.kind === 'edit' ? action.entry : null} onClose={close} />
          <MemberModal entry={action?.kind === 'member' ? action.entry : null} onClose={close} />
          <HistoryModal entry={action?.kind === 'history' ? action.entry : null} onClose={close} />
          <OperatorPayModal entry={action?.kind === 'pay' ? action.entry : null} onClose={close} />
          <CompleteModal entry={action?.kind === 'complete' ? action.entry : null} onClose={close} />
          <RestoreModal entry={action?.kind === 'restore' ? action.entry : null} onClose={close} />
          {renderPublication?.(current('publication')?.publication?.id ?? null, close)}
          {renderContract?.(current('contract'), close)}
        </>
      ) : (
        <EditEntryModal entry={action?.kind === 'edit' ? action.entry : null} onClose={close} />
      )}
      <ThesisModal entry={action?.kind === 'thesis' ? action.entry : null} onClose={close} />
      <RemoveEntryModal entry={action?.kind === 'remove' ? action.entry : null} onClose={close} isOperator={manager} />
    </Stack>
  );
}
