import { useState, type ReactNode } from 'react';
import { Badge, Button, Checkbox, Group, Modal, Paper, ScrollArea, SegmentedControl, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconFileSpreadsheet, IconSearch } from '@tabler/icons-react';
import { ContractStatus } from '@edu/domain/common/codes';
import { Messages } from '@edu/domain/common/messages';
import { ContractMessages, type ContractStatusCode } from '@edu/domain/contracts/contract';
import { errorMessage } from '../../../lib/api-client';
import { notifyError } from '../../../lib/notify';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { ListPagination } from '../../../components/list-pagination';
import { useDraftParams, useListParams } from '../../../components/use-list-params';
import { useContracts } from '../api/get-contracts';
import { useExportContracts } from '../api/export-contracts';
import { ContractCard } from '../components/contract-card';

export interface ContractBoardPageProps {
  /** The client's documents (from the documents feature), shown in a modal one click from the card. */
  renderDocuments: (userId: number) => ReactNode;
}

type ColumnKey = 'review' | 'approved' | 'rejected' | 'waiting';

interface ColumnSpec {
  key: ColumnKey;
  status: ContractStatusCode;
  /** Pending contracts are split by their scan: uploaded (to check) or not yet (waiting for the client). */
  scan?: boolean;
  title: string;
  color: string;
  /** The data-testid of the column and its count badge (the approved and rejected ones keep their status). */
  testId: string;
}

/** Work first: scans to check; contracts still waiting for a scan are the client's move and come last. */
const COLUMNS: ColumnSpec[] = [
  { key: 'review', status: ContractStatus.pending, scan: true, title: ContractMessages.toReview, color: 'yellow', testId: 'review' },
  { key: 'approved', status: ContractStatus.approved, title: ContractMessages.approved, color: 'teal', testId: String(ContractStatus.approved) },
  { key: 'rejected', status: ContractStatus.rejected, title: ContractMessages.rejected, color: 'red', testId: String(ContractStatus.rejected) },
  { key: 'waiting', status: ContractStatus.pending, scan: false, title: ContractMessages.waitingScan, color: 'gray', testId: 'waiting' },
];

const isColumnKey = (v: string | undefined): v is ColumnKey => COLUMNS.some((c) => c.key === v);

/** Four columns side by side from this width; below it one column at a time, chosen by tabs. */
const WIDE_QUERY = '(min-width: 62em)';

const PER_PAGE = 15;

/**
 * /manager/contract (spec 02 §2 Contract review board): search by fio, columns with count badges,
 * accept, reject with an optional comment, the registration number, the client's documents, the
 * Excel export. The spec's pending column is split (issue 30): «Проверить скан» (a scan is
 * uploaded: work, first) and «Ждём скан» (the client's move, last). Side by side the board is one
 * screen tall (each column scrolls); on a narrow screen tabs show one column at a time.
 */
export function ContractBoardPage({ renderDocuments }: ContractBoardPageProps) {
  useDocumentTitle('Договоры');
  // The search and the archive switch live in the address bar (?fio=…&archive=1): a reload keeps them.
  const params = useListParams();
  const [fio, setFio, debouncedFio] = useDraftParams(
    params,
    (v) => v.fio ?? '',
    (f) => ({ fio: f.trim() }),
  );
  // The box shows its new state at once; the URL follows.
  const [archive, setArchive] = useState(() => params.values.archive === '1');
  // ?column=review|waiting|approved|rejected (the dashboard's links): the column shown on a narrow
  // screen and marked on a wide one.
  const [column, setColumnNow] = useState<ColumnKey>(() => (isColumnKey(params.values.column) ? params.values.column : 'review'));
  const chosen = isColumnKey(params.values.column) ? params.values.column : null;
  const setColumn = (key: ColumnKey) => {
    setColumnNow(key);
    params.set('column', key === 'review' ? '' : key);
  };
  const wide = useMediaQuery(WIDE_QUERY, true, { getInitialValueInEffect: false }) ?? true;
  const counts = useColumnCounts(debouncedFio, archive);
  const [docsOf, setDocsOf] = useState<{ id: number; fio: string } | null>(null);
  const exporter = useExportContracts();

  async function exportExcel() {
    try {
      await exporter.mutateAsync({ fio: debouncedFio });
    } catch (error) {
      notifyError(errorMessage(error));
    }
  }

  return (
    <Stack gap="lg">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Title order={2}>Договоры</Title>
        <Group gap="sm" align="center">
          <TextInput
            placeholder={ContractMessages.searchPlaceholder}
            aria-label={ContractMessages.searchPlaceholder}
            leftSection={<IconSearch size={16} />}
            value={fio}
            onChange={(e) => setFio(e.currentTarget.value)}
            w={{ base: '100%', sm: 280 }}
          />
          <Checkbox
            label="Показать архив"
            checked={archive}
            onChange={(e) => {
              setArchive(e.currentTarget.checked);
              params.set('archive', e.currentTarget.checked ? '1' : '');
            }}
          />
          <Button variant="light" leftSection={<IconFileSpreadsheet size={16} />} onClick={exportExcel} loading={exporter.isPending}>
            Выгрузить в Excel
          </Button>
        </Group>
      </Group>

      {wide ? (
        <div
          style={{ display: 'grid', gap: 'var(--mantine-spacing-sm)', gridTemplateColumns: `repeat(${COLUMNS.length}, minmax(0, 1fr))`, alignItems: 'start' }}
        >
          {COLUMNS.map((c) => (
            <Column
              key={c.key}
              spec={c}
              fio={debouncedFio}
              archive={c.status === ContractStatus.approved && archive}
              onDocuments={setDocsOf}
              marked={chosen === c.key}
              scroll
            />
          ))}
        </div>
      ) : (
        <Stack gap="sm">
          <SegmentedControl
            aria-label="Столбец"
            fullWidth
            orientation="horizontal"
            value={column}
            onChange={(v) => setColumn(v as ColumnKey)}
            data={COLUMNS.map((c) => ({
              value: c.key,
              label: `${c.title}${counts[c.key] === undefined ? '' : ` · ${counts[c.key]}`}`,
            }))}
            styles={{ root: { flexWrap: 'wrap' }, control: { flex: '1 1 45%' } }}
            data-testid="column-tabs"
          />
          {COLUMNS.filter((c) => c.key === column).map((c) => (
            <Column key={c.key} spec={c} fio={debouncedFio} archive={c.status === ContractStatus.approved && archive} onDocuments={setDocsOf} />
          ))}
        </Stack>
      )}

      <Modal
        opened={docsOf !== null}
        onClose={() => setDocsOf(null)}
        title={docsOf ? `Документы: ${docsOf.fio}` : ''}
        size="xl"
        scrollAreaComponent={ScrollArea.Autosize}
      >
        {docsOf && renderDocuments(docsOf.id)}
      </Modal>
    </Stack>
  );
}

/** The totals of the four columns (first pages are shared with the columns through the query cache). */
function useColumnCounts(fio: string, archive: boolean): Partial<Record<ColumnKey, number>> {
  const out: Partial<Record<ColumnKey, number>> = {};
  const review = useContracts({ status: ContractStatus.pending, scan: true, fio, page: 1, per_page: PER_PAGE });
  const waiting = useContracts({ status: ContractStatus.pending, scan: false, fio, page: 1, per_page: PER_PAGE });
  const approved = useContracts({ status: ContractStatus.approved, fio, archive, page: 1, per_page: PER_PAGE });
  const rejected = useContracts({ status: ContractStatus.rejected, fio, page: 1, per_page: PER_PAGE });
  out.review = review.data?.meta.total;
  out.waiting = waiting.data?.meta.total;
  out.approved = approved.data?.meta.total;
  out.rejected = rejected.data?.meta.total;
  return out;
}

function Column({
  spec,
  fio,
  archive,
  onDocuments,
  marked = false,
  scroll = false,
}: {
  spec: ColumnSpec;
  fio: string;
  archive: boolean;
  onDocuments: (u: { id: number; fio: string }) => void;
  /** Opened from a link naming this column (?column=…): outlined. */
  marked?: boolean;
  /** Side by side: the cards scroll inside the column, so the board stays one screen tall. */
  scroll?: boolean;
}) {
  const { status, title, color, scan, testId } = spec;
  const [page, setPage] = useState(1);
  const [prevKey, setPrevKey] = useState(`${fio}|${archive}`);
  if (prevKey !== `${fio}|${archive}`) {
    setPrevKey(`${fio}|${archive}`);
    setPage(1);
  }
  const list = useContracts({ status, scan, fio, archive: status === ContractStatus.approved ? archive : undefined, page, per_page: PER_PAGE });
  const cards = (
    <Stack gap="sm">
      {list.data?.data.map((c) => (
        <ContractCard key={c.entry.id} contract={c} onDocuments={onDocuments} />
      ))}
    </Stack>
  );
  return (
    <Paper
      p="sm"
      radius="lg"
      bg="var(--mantine-color-gray-0)"
      withBorder
      data-testid={`column-${testId}`}
      data-marked={marked || undefined}
      style={marked ? { borderColor: 'var(--mantine-color-blue-5)', boxShadow: '0 0 0 1px var(--mantine-color-blue-5)' } : undefined}
    >
      <Group justify="space-between" mb="sm">
        <Title order={3} size="h5">
          {archive ? `${title} (архив)` : title}
        </Title>
        <Badge color={color} variant="filled" data-testid={`count-${testId}`}>
          {list.data?.meta.total ?? '…'}
        </Badge>
      </Group>
      {list.isError && (
        <Text c="red" size="sm">
          {errorMessage(list.error)}
        </Text>
      )}
      {!list.data && !list.isError && (
        <Stack gap="sm">
          <Skeleton h={110} radius="md" />
          <Skeleton h={110} radius="md" />
        </Stack>
      )}
      {list.data && list.data.data.length === 0 && (
        <Text c="dimmed" size="sm" ta="center" py="lg">
          {Messages.nothingFound}
        </Text>
      )}
      {scroll ? (
        <ScrollArea.Autosize mah="calc(100dvh - 270px)" type="auto" offsetScrollbars>
          {cards}
        </ScrollArea.Autosize>
      ) : (
        cards
      )}
      <ListPagination meta={list.data?.meta} onPage={setPage} />
    </Paper>
  );
}
