import { ActionIcon, Group, Menu, Tooltip } from '@mantine/core';
import { IconPencil, IconPrinter, IconTag, IconTrash } from '@tabler/icons-react';
import type { Entry } from '@edu/domain/entries/entry';

export type EntryAction = 'edit' | 'thesis' | 'remove';

/** Edit, theses (tag), remove and print, each only when the entry allows it. */
export function EntryActions({ entry, onAction }: { entry: Entry; onAction: (action: EntryAction, entry: Entry) => void }) {
  if (entry.deleted_at) return null;
  const thesis = entry.is_thesis_needed && entry.can_edit_thesis;
  return (
    <Group gap={4} wrap="nowrap">
      {entry.can_edit && (
        <Tooltip label="Изменить заявку" openDelay={300}>
          <ActionIcon variant="subtle" color="gray" aria-label={`Изменить заявку ${entry.number}`} onClick={() => onAction('edit', entry)}>
            <IconPencil size={18} stroke={1.6} />
          </ActionIcon>
        </Tooltip>
      )}
      {thesis && (
        <Tooltip label={entry.thesis ? 'Изменить тезисы' : 'Добавить тезисы'} openDelay={300}>
          <ActionIcon
            variant={entry.thesis ? 'subtle' : 'light'}
            color={entry.thesis ? 'gray' : 'orange'}
            aria-label={`Тезисы заявки ${entry.number}`}
            onClick={() => onAction('thesis', entry)}
          >
            <IconTag size={18} stroke={1.6} />
          </ActionIcon>
        </Tooltip>
      )}
      {entry.can_print_certificate && (
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <Tooltip label="Печать" openDelay={300}>
              <ActionIcon variant="subtle" color="gray" aria-label={`Печать документов заявки ${entry.number}`}>
                <IconPrinter size={18} stroke={1.6} />
              </ActionIcon>
            </Tooltip>
          </Menu.Target>
          <Menu.Dropdown>
            <Menu.Item component="a" href={`/entry/${entry.id}/print/certificate`} target="_blank" rel="noopener">
              Сертификат
            </Menu.Item>
          </Menu.Dropdown>
        </Menu>
      )}
      {entry.can_edit && (
        <Tooltip label="Удалить заявку" openDelay={300}>
          <ActionIcon variant="subtle" color="red" aria-label={`Удалить заявку ${entry.number}`} onClick={() => onAction('remove', entry)}>
            <IconTrash size={18} stroke={1.6} />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
}
