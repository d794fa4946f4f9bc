import { useState } from 'react';
import { Anchor, Badge, Button, Group, Modal, Paper, Stack, Text, Textarea } from '@mantine/core';
import { IconCheck, IconFolder, IconHash, IconX } from '@tabler/icons-react';
import { Link } from 'react-router';
import { ContractStatus } from '@edu/domain/common/codes';
import { COMMENT_MAX, ContractMessages, type ContractItem } from '@edu/domain/contracts/contract';
import { errorMessage } from '../../../lib/api-client';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { runUndoable } from '../../../lib/undoable';
import { useAcceptContract, useRejectContract } from '../api/review-contract';
import { useSetRegistrationNumber } from '../api/set-registration-number';
import { ScanLink } from './scan-link';

/**
 * One contract (spec 02 §2 Contract review board, §4): client, service, entry, scan, the rejection
 * comment, the registration number; accept (after a confirmation, and with a few seconds to take it
 * back) or reject (optional comment) while pending with a scan;
 * 'Установить рег номер' once approved. On the board and in the operator's entry menu ('Договор').
 */
export function ContractCard({ contract, onDocuments }: { contract: ContractItem; onDocuments?: (u: { id: number; fio: string }) => void }) {
  const accept = useAcceptContract();
  const reject = useRejectContract();
  const setNumber = useSetRegistrationNumber();
  const [rejecting, setRejecting] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [accepting, setAccepting] = useState(false);
  const [comment, setComment] = useState('');
  const id = contract.id;
  const reviewable = id !== null && contract.file !== null && contract.status === ContractStatus.pending;

  async function run(action: () => Promise<{ message: string }>) {
    try {
      notifySuccess((await action()).message);
      return true;
    } catch (error) {
      notifyError(errorMessage(error));
      return false;
    }
  }

  return (
    <Paper p="sm" radius="md" withBorder data-testid="contract-card" data-entry={contract.entry.id}>
      <Stack gap={6}>
        <Anchor component={Link} to={`/manager/users?id=${contract.user.id}`} fw={600} size="sm" c="var(--mantine-color-text)">
          {contract.user.fio}
        </Anchor>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {contract.service.title}
        </Text>
        <Text size="xs" c="dimmed">
          Заявка № {contract.entry.number}
          {contract.updated_at_formatted ? ` · ${contract.updated_at_formatted}` : ''}
        </Text>
        <ScanLink contract={contract} />
        {contract.status === ContractStatus.rejected && (
          <Text size="sm" c="red.8" data-testid="card-comment">
            {contract.comment ? `Комментарий: ${contract.comment}` : 'Без комментария'}
          </Text>
        )}
        {contract.entry.registration_number && (
          <Badge variant="light" color="gray" leftSection={<IconHash size={12} />} tt="none">
            Рег. номер {contract.entry.registration_number}
          </Badge>
        )}
        <Group gap={6} mt={4}>
          {reviewable && (
            <>
              <Button size="compact-sm" color="teal" leftSection={<IconCheck size={14} />} loading={accept.isPending} onClick={() => setAccepting(true)}>
                Принять
              </Button>
              <Button size="compact-sm" color="red" variant="light" leftSection={<IconX size={14} />} onClick={() => setRejecting(true)}>
                Отклонить
              </Button>
            </>
          )}
          {contract.status === ContractStatus.approved && !contract.entry.registration_number && (
            <Button size="compact-sm" variant="light" leftSection={<IconHash size={14} />} onClick={() => setConfirming(true)}>
              {ContractMessages.setRegistrationNumber}
            </Button>
          )}
          {onDocuments && (
            <Button size="compact-sm" variant="subtle" leftSection={<IconFolder size={14} />} onClick={() => onDocuments(contract.user)}>
              Документы
            </Button>
          )}
        </Group>
      </Stack>

      <Modal opened={accepting} onClose={() => setAccepting(false)} title={ContractMessages.acceptTitle}>
        <Stack>
          <Text>{ContractMessages.acceptConfirm(contract.user.fio, contract.entry.number)}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setAccepting(false)}>
              Отмена
            </Button>
            <Button
              color="teal"
              data-autofocus
              onClick={() => {
                setAccepting(false);
                // A slip can be taken back for a few seconds before the client is told.
                runUndoable({
                  pending: ContractMessages.acceptPending(contract.entry.number),
                  undone: ContractMessages.acceptUndone,
                  run: async () => void (await run(() => accept.mutateAsync({ id: id! }))),
                });
              }}
            >
              Принять
            </Button>
          </Group>
        </Stack>
      </Modal>

      <Modal opened={rejecting} onClose={() => setRejecting(false)} title="Отклонить договор">
        <Stack>
          <Textarea
            label="Комментарий"
            description={ContractMessages.commentHint}
            autosize
            minRows={3}
            maxLength={COMMENT_MAX}
            value={comment}
            onChange={(e) => setComment(e.currentTarget.value)}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setRejecting(false)}>
              Отмена
            </Button>
            <Button
              color="red"
              loading={reject.isPending}
              onClick={async () => {
                if (await run(() => reject.mutateAsync({ id: id!, comment }))) {
                  setRejecting(false);
                  setComment('');
                }
              }}
            >
              Отклонить
            </Button>
          </Group>
        </Stack>
      </Modal>

      <Modal opened={confirming} onClose={() => setConfirming(false)} title={ContractMessages.setRegistrationNumber}>
        <Stack>
          <Text>{ContractMessages.setRegistrationNumberConfirm}</Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              НЕТ
            </Button>
            <Button
              loading={setNumber.isPending}
              onClick={async () => {
                if (
                  await run(() =>
                    setNumber.mutateAsync({ entryId: contract.entry.id }).then((a) => ({ message: `${a.message}: ${a.data.registration_number}` })),
                  )
                )
                  setConfirming(false);
              }}
            >
              ДА
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}
