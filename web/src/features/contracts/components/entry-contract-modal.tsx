import { Badge, Group, Modal, Stack, Text } from '@mantine/core';
import type { ContractItem, ContractStatusCode } from '@edu/domain/contracts/contract';
import type { Entry } from '@edu/domain/entries/entry';
import { ContractCard } from './contract-card';

/** The board's card of an entry's contract, built from the entry (spec 02 §3 Entry: contract). */
function contractItemOf(entry: Entry): ContractItem | null {
  const c = entry.contract;
  if (!c) return null;
  return {
    id: c.id,
    status: c.status as ContractStatusCode,
    statusLabel: c.statusLabel,
    statusColor: c.statusColor,
    comment: c.comment,
    file: c.file,
    user: entry.user,
    service: { id: entry.service.id, title: entry.service.title, template_certificate_id: entry.service.template_certificate_id },
    entry: { id: entry.id, number: entry.number, status: entry.status, registration_number: entry.registration_number },
    archived: c.status === 2 && entry.registration_number !== null,
    updated_at_formatted: null,
  };
}

/**
 * 'Договор' of the operator's entry menu (spec 02 §2 Entry modals): the contract's status, scan and
 * rejection comment, with the board's actions (accept, reject, registration number).
 */
export function EntryContractModal({ entry, onClose }: { entry: Entry | null; onClose: () => void }) {
  const item = entry ? contractItemOf(entry) : null;
  return (
    <Modal opened={item !== null} onClose={onClose} title={entry ? `Договор по заявке № ${entry.number}` : ''} size="md" data-testid="entry-contract-modal">
      {item && (
        <Stack gap="sm">
          <Group gap="xs">
            <Text size="sm">Статус:</Text>
            <Badge color={item.statusColor} variant="light" data-testid="entry-contract-status">
              {item.statusLabel}
            </Badge>
          </Group>
          <ContractCard contract={item} />
        </Stack>
      )}
    </Modal>
  );
}
