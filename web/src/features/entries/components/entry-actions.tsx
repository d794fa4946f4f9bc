import { ActionIcon, Anchor, Group, Menu, Tooltip } from '@mantine/core';
import {
  IconArticle,
  IconFileText,
  IconArrowBackUp,
  IconCertificate,
  IconCreditCard,
  IconDots,
  IconHistory,
  IconPencil,
  IconPrinter,
  IconTag,
  IconTrash,
  IconTrophy,
} from '@tabler/icons-react';
import { EntryStatus, KnownIds } from '@edu/domain/common/codes';
import { printKindLabels, type PrintKind } from '@edu/domain/documents/print';
import type { Entry } from '@edu/domain/entries/entry';
import { PaymentMessages } from '@edu/domain/payments/payment';
import { PublicationMessages as PublicationEntryMessages } from '@edu/domain/publications/publication';

/** A print item of the operator's menu says that it prints: «Печать договора» beside «Открыть договор». */
const printItemLabel = (kind: PrintKind) => (kind === 'contract' ? 'Печать договора' : printKindLabels[kind]);

export type EntryAction = 'edit' | 'thesis' | 'remove' | 'member' | 'history' | 'pay' | 'complete' | 'restore' | 'publication' | 'contract' | 'article';

/** The operator's actions (spec 02 §2 Entry modals): edit, theses, publication, contract, member, history, pay, complete, delete or restore. */
function OperatorActions({ entry, onAction }: { entry: Entry; onAction: (action: EntryAction, entry: Entry) => void }) {
  const live = !entry.deleted_at;
  return (
    <Group gap={4} wrap="nowrap">
      {live && (
        <Tooltip label="Изменить заявку" openDelay={300}>
          <ActionIcon variant="subtle" color="gray" aria-label={`Изменить заявку ${entry.number}`} onClick={() => onAction('edit', entry)}>
            <IconPencil size={18} stroke={1.6} />
          </ActionIcon>
        </Tooltip>
      )}
      <Tooltip label="История" openDelay={300}>
        <ActionIcon variant="subtle" color="gray" aria-label={`История заявки ${entry.number}`} onClick={() => onAction('history', entry)}>
          <IconHistory size={18} stroke={1.6} />
        </ActionIcon>
      </Tooltip>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" aria-label={`Действия с заявкой ${entry.number}`}>
            <IconDots size={18} stroke={1.6} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {live && entry.status === EntryStatus.notPaid && (
            <Menu.Item leftSection={<IconCreditCard size={16} />} onClick={() => onAction('pay', entry)}>
              {PaymentMessages.markPaidButton}
            </Menu.Item>
          )}
          {live && entry.status === EntryStatus.paid && (
            <Menu.Item leftSection={<IconCertificate size={16} />} onClick={() => onAction('complete', entry)}>
              Завершить
            </Menu.Item>
          )}
          {live && entry.is_thesis_needed && (
            <Menu.Item leftSection={<IconTag size={16} />} onClick={() => onAction('thesis', entry)}>
              Тезисы
            </Menu.Item>
          )}
          {entry.publication && (
            <Menu.Item leftSection={<IconArticle size={16} />} onClick={() => onAction('publication', entry)}>
              Публикация
            </Menu.Item>
          )}
          {entry.contract && (
            <Menu.Item leftSection={<IconFileText size={16} />} onClick={() => onAction('contract', entry)}>
              Открыть договор
            </Menu.Item>
          )}
          {live && entry.service.dict_type_id === KnownIds.contestServiceType && (
            <Menu.Item leftSection={<IconTrophy size={16} />} onClick={() => onAction('member', entry)}>
              Участник конкурса
            </Menu.Item>
          )}
          {entry.printable.map((kind) => (
            <Menu.Item
              key={kind}
              leftSection={<IconPrinter size={16} />}
              component="a"
              href={`/entry/${entry.id}/print/${kind}`}
              target="_blank"
              rel="noopener"
            >
              {printItemLabel(kind)}
            </Menu.Item>
          ))}
          {live ? (
            <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => onAction('remove', entry)}>
              Удалить
            </Menu.Item>
          ) : (
            <Menu.Item leftSection={<IconArrowBackUp size={16} />} onClick={() => onAction('restore', entry)}>
              Восстановить
            </Menu.Item>
          )}
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}

/**
 * «Добавить статью» for a client's paid publication entry without its article (a package's
 * publication): the article is added to it, nothing is charged again. Shown under the entry's title,
 * so the row of icons stays narrow.
 */
export function AddArticleButton({ entry, onAction }: { entry: Entry; onAction: (action: EntryAction, entry: Entry) => void }) {
  if (!entry.can_add_publication || entry.deleted_at) return null;
  return (
    // A link-like button whose words wrap: it never widens the title column of the entries table.
    <Anchor
      component="button"
      type="button"
      size="sm"
      fw={600}
      onClick={() => onAction('article', entry)}
      data-testid="add-article"
      mt={4}
      style={{ textAlign: 'left' }}
    >
      <IconArticle size={14} style={{ verticalAlign: -2, marginRight: 4 }} />
      {PublicationEntryMessages.addArticle}
    </Anchor>
  );
}

/** Edit, theses (tag), remove and print, each only when the entry allows it; operators get their own set. */
export function EntryActions({
  entry,
  onAction,
  manager = false,
  noRemove = false,
}: {
  entry: Entry;
  onAction: (action: EntryAction, entry: Entry) => void;
  manager?: boolean;
  noRemove?: boolean;
}) {
  if (manager) return <OperatorActions entry={entry} onAction={onAction} />;
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
      {entry.printable.length > 0 && (
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <Tooltip label="Печать" openDelay={300}>
              <ActionIcon variant="subtle" color="gray" aria-label={`Печать документов заявки ${entry.number}`}>
                <IconPrinter size={18} stroke={1.6} />
              </ActionIcon>
            </Tooltip>
          </Menu.Target>
          <Menu.Dropdown>
            {entry.printable.map((kind) => (
              <Menu.Item key={kind} component="a" href={`/entry/${entry.id}/print/${kind}`} target="_blank" rel="noopener">
                {printKindLabels[kind]}
              </Menu.Item>
            ))}
          </Menu.Dropdown>
        </Menu>
      )}
      {entry.can_edit && !noRemove && (
        <Tooltip label="Удалить заявку" openDelay={300}>
          <ActionIcon variant="subtle" color="red" aria-label={`Удалить заявку ${entry.number}`} onClick={() => onAction('remove', entry)}>
            <IconTrash size={18} stroke={1.6} />
          </ActionIcon>
        </Tooltip>
      )}
    </Group>
  );
}
