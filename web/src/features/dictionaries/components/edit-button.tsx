import { ActionIcon, Tooltip } from '@mantine/core';
import { IconPencil } from '@tabler/icons-react';

export function EditButton({ label, onClick }: { label: string; onClick: () => void }) {
  return (
    <Tooltip label="Редактировать">
      <ActionIcon variant="subtle" aria-label={`Редактировать ${label}`} onClick={onClick}>
        <IconPencil size={18} />
      </ActionIcon>
    </Tooltip>
  );
}
