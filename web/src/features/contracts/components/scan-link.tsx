import { Anchor, Group, Text } from '@mantine/core';
import { IconFileText } from '@tabler/icons-react';
import { ContractMessages, type ContractItem } from '@edu/domain/contracts/contract';
import { errorMessage } from '../../../lib/api-client';
import { notifyError } from '../../../lib/notify';
import { openPrivateFile } from '../../../lib/private-file';

/** The signed scan, opened through the authorised file route; or 'Скан не загружен'. */
export function ScanLink({ contract }: { contract: ContractItem }) {
  if (!contract.file) {
    return (
      <Text size="sm" c="dimmed" data-testid="no-scan">
        {ContractMessages.noScan}
      </Text>
    );
  }
  const file = contract.file;
  return (
    <Group gap={4} wrap="nowrap">
      <IconFileText size={16} style={{ flex: 'none' }} />
      <Anchor
        component="button"
        type="button"
        size="sm"
        onClick={() => openPrivateFile(file.url).catch((e: unknown) => notifyError(errorMessage(e)))}
        style={{ overflowWrap: 'anywhere', textAlign: 'left' }}
        data-testid="scan-link"
      >
        Скан: {file.name}
      </Anchor>
    </Group>
  );
}
