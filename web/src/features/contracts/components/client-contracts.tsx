import { Alert, Anchor, Badge, Button, FileButton, Group, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconPrinter, IconUpload } from '@tabler/icons-react';
import { Link } from 'react-router';
import { ContractStatus } from '@edu/domain/common/codes';
import { ContractMessages, type ContractItem } from '@edu/domain/contracts/contract';
import { DocumentMessages } from '@edu/domain/documents/documents';
import { UPLOAD_MAX_BYTES } from '@edu/domain/users/profile';
import { errorMessage } from '../../../lib/api-client';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useContracts } from '../api/get-contracts';
import { useUploadContractScan } from '../api/upload-contract-scan';
import { ScanLink } from './scan-link';

/**
 * Step 3 of the wizard: each of the client's course entries with the contract print, the signed
 * scan upload (when is_contract_allowed), its status and, when rejected, the comment and upload again.
 */
export function ClientContracts({ contractAllowed }: { contractAllowed: boolean }) {
  const list = useContracts({ page: 1, per_page: 100 });
  if (list.isError) return <Alert color="red">{errorMessage(list.error)}</Alert>;
  if (!list.data) return <Skeleton h={160} radius="lg" />;
  const items = list.data.data;
  const allApproved = items.length > 0 && items.every((c) => c.status === ContractStatus.approved);
  return (
    <Paper p="lg" radius="lg" component="section" aria-label="Договор">
      <Title order={3} size="h5" mb={4}>
        Договор
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        Распечатайте договор, подпишите его и загрузите скан. {DocumentMessages.fileHint}.
      </Text>
      {!contractAllowed && (
        <Alert color="yellow" mb="md">
          {DocumentMessages.fillAllForContract}
        </Alert>
      )}
      <Stack gap="sm">
        {items.map((c) => (
          <ClientContract key={c.entry.id} contract={c} contractAllowed={contractAllowed} />
        ))}
      </Stack>
      {allApproved && (
        <Alert color="teal" mt="md" data-testid="contracts-done">
          Все договоры одобрены.{' '}
          <Anchor component={Link} to="/user/entry">
            Перейти к моим заявкам
          </Anchor>
        </Alert>
      )}
    </Paper>
  );
}

function ClientContract({ contract, contractAllowed }: { contract: ContractItem; contractAllowed: boolean }) {
  const upload = useUploadContractScan();
  const canUpload = contractAllowed && contract.status !== ContractStatus.approved;

  async function send(file: File | null) {
    if (!file) return;
    if (!/\.(pdf|jpe?g|png)$/i.test(file.name)) return notifyError(DocumentMessages.fileType);
    if (file.size > UPLOAD_MAX_BYTES) return notifyError(DocumentMessages.fileTooLarge);
    try {
      const answer = await upload.mutateAsync({ entryId: contract.entry.id, file });
      notifySuccess(answer.message);
    } catch (error) {
      notifyError(errorMessage(error));
    }
  }

  return (
    <Paper withBorder p="md" radius="md" data-testid={`client-contract-${contract.entry.id}`}>
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Stack gap={2} style={{ minWidth: 0, flex: '1 1 220px' }}>
            <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
              {contract.service.title}
            </Text>
            <Text size="xs" c="dimmed">
              Заявка № {contract.entry.number}
              {contract.entry.registration_number ? ` · рег. номер ${contract.entry.registration_number}` : ''}
            </Text>
          </Stack>
          {contract.file && (
            <Badge color={contract.statusColor} variant="light" style={{ flex: 'none' }} data-testid="contract-status">
              {contract.statusLabel}
            </Badge>
          )}
        </Group>
        {contract.status === ContractStatus.rejected && (
          <Alert color="red" title="Договор отклонён" data-testid="reject-comment">
            <Text size="sm">{contract.comment ? `Комментарий оператора: ${contract.comment}` : 'Оператор не оставил комментария.'}</Text>
            <Text size="sm" mt={4}>
              Исправьте замечания и загрузите скан повторно.
            </Text>
          </Alert>
        )}
        <ScanLink contract={contract} />
        <Group gap="xs">
          <Button
            component="a"
            href={`/entry/${contract.entry.id}/print/contract`}
            target="_blank"
            rel="noopener"
            variant="light"
            size="sm"
            leftSection={<IconPrinter size={16} />}
          >
            Распечатать договор
          </Button>
          {canUpload && (
            <FileButton onChange={send} accept=".pdf,.jpg,.jpeg,.png,application/pdf,image/jpeg,image/png">
              {(props) => (
                <Button {...props} size="sm" leftSection={<IconUpload size={16} />} loading={upload.isPending} data-testid="upload-scan">
                  {contract.file ? 'Загрузить скан заново' : 'Загрузить подписанный скан'}
                </Button>
              )}
            </FileButton>
          )}
        </Group>
        {contract.status === ContractStatus.pending && contract.file && (
          <Text size="xs" c="dimmed">
            {ContractMessages.pending}: оператор проверит скан и сообщит о результате.
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
