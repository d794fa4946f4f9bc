import { useState, type ReactNode } from 'react';
import { Badge, Button, Checkbox, Group, Modal, Paper, ScrollArea, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
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

const COLUMNS: Array<{ status: ContractStatusCode; title: string; color: string }> = [
  { status: ContractStatus.pending, title: ContractMessages.pending, color: 'yellow' },
  { status: ContractStatus.approved, title: ContractMessages.approved, color: 'teal' },
  { status: ContractStatus.rejected, title: ContractMessages.rejected, color: 'red' },
];

const PER_PAGE = 15;

/**
 * /manager/contract (spec 02 §2 Contract review board): search by fio, three columns with count
 * badges, accept, reject with an optional comment, the registration number, the client's documents,
 * the Excel export. A board of columns at every width (stacked on narrow screens), not a table.
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

      <div style={{ display: 'grid', gap: 'var(--mantine-spacing-md)', gridTemplateColumns: 'repeat(auto-fit, minmax(300px, 1fr))', alignItems: 'start' }}>
        {COLUMNS.map((c) => (
          <Column key={c.status} {...c} fio={debouncedFio} archive={c.status === ContractStatus.approved && archive} onDocuments={setDocsOf} />
        ))}
      </div>

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

function Column({
  status,
  title,
  color,
  fio,
  archive,
  onDocuments,
}: {
  status: ContractStatusCode;
  title: string;
  color: string;
  fio: string;
  archive: boolean;
  onDocuments: (u: { id: number; fio: string }) => void;
}) {
  const [page, setPage] = useState(1);
  const [prevKey, setPrevKey] = useState(`${fio}|${archive}`);
  if (prevKey !== `${fio}|${archive}`) {
    setPrevKey(`${fio}|${archive}`);
    setPage(1);
  }
  const list = useContracts({ status, fio, archive, page, per_page: PER_PAGE });
  return (
    <Paper p="md" radius="lg" bg="var(--mantine-color-gray-0)" withBorder data-testid={`column-${status}`}>
      <Group justify="space-between" mb="sm">
        <Title order={3} size="h5">
          {archive ? `${title} (архив)` : title}
        </Title>
        <Badge color={color} variant="filled" data-testid={`count-${status}`}>
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
      <Stack gap="sm">
        {list.data?.data.map((c) => (
          <ContractCard key={c.entry.id} contract={c} onDocuments={onDocuments} />
        ))}
      </Stack>
      <ListPagination meta={list.data?.meta} onPage={setPage} />
    </Paper>
  );
}
