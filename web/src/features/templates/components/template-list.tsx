import { ActionIcon, Badge, Card, Group, Menu, Stack, Table, Text, Tooltip } from '@mantine/core';
import { IconDotsVertical, IconFileTypeDocx, IconPencil, IconStar, IconTrash } from '@tabler/icons-react';
import { formatDateTime } from '@edu/domain/common/format';
import { DEFAULTABLE_TYPES, templateEditor, type Template } from '@edu/domain/templates/template';

export type TemplateAction = 'edit' | 'delete' | 'default';

function Defaults({ t }: { t: Template }) {
  const list = [...t.serviceTypeCertificateFor, ...t.serviceTypePageFor];
  if (list.length === 0)
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  return (
    <Group gap={4}>
      {list.map((s) => (
        <Badge key={s.id} variant="light" color={s.color ?? 'blue'} size="sm">
          {s.fdv}
        </Badge>
      ))}
    </Group>
  );
}

function Content({ t }: { t: Template }) {
  if (templateEditor(t.dict_type_id) === 'file')
    return t.file ? (
      <Group gap={4} wrap="nowrap">
        <IconFileTypeDocx size={16} />
        <Text size="sm" lineClamp={1}>
          {t.file.name}
        </Text>
      </Group>
    ) : (
      <Text size="sm" c="red.7">
        Файл не загружен
      </Text>
    );
  const text = (t.content ?? '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return (
    <Text size="sm" c="dimmed" lineClamp={2}>
      {text}
    </Text>
  );
}

function Actions({ t, onAction }: { t: Template; onAction: (a: TemplateAction, t: Template) => void }) {
  return (
    <Group gap={4} wrap="nowrap" justify="flex-end">
      <Tooltip label="Изменить" openDelay={300}>
        <ActionIcon variant="subtle" color="gray" aria-label={`Изменить шаблон ${t.title}`} onClick={() => onAction('edit', t)}>
          <IconPencil size={18} stroke={1.6} />
        </ActionIcon>
      </Tooltip>
      <Menu position="bottom-end" withinPortal>
        <Menu.Target>
          <ActionIcon variant="subtle" color="gray" aria-label={`Действия с шаблоном ${t.title}`}>
            <IconDotsVertical size={18} stroke={1.6} />
          </ActionIcon>
        </Menu.Target>
        <Menu.Dropdown>
          {DEFAULTABLE_TYPES.includes(t.dict_type_id) && (
            <Menu.Item leftSection={<IconStar size={16} />} onClick={() => onAction('default', t)}>
              Установить по умолчанию
            </Menu.Item>
          )}
          <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => onAction('delete', t)}>
            Удалить
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
    </Group>
  );
}

/** Templates as a table above 1199 px and cards at or below (spec 01 §9). */
export function TemplateList({ templates, narrow, onAction }: { templates: Template[]; narrow: boolean; onAction: (a: TemplateAction, t: Template) => void }) {
  if (narrow)
    return (
      <Stack gap="sm" data-testid="templates-cards">
        {templates.map((t) => (
          <Card key={t.id} withBorder radius="md" padding="md">
            <Group justify="space-between" align="flex-start" wrap="nowrap">
              <Stack gap={6} style={{ minWidth: 0 }}>
                <Text fw={600}>{t.title}</Text>
                <Content t={t} />
                <Defaults t={t} />
                <Text size="xs" c="dimmed">
                  Изменён {formatDateTime(t.updated_at)}
                </Text>
              </Stack>
              <Actions t={t} onAction={onAction} />
            </Group>
          </Card>
        ))}
      </Stack>
    );
  return (
    <Table.ScrollContainer minWidth={800}>
      <Table verticalSpacing="sm" highlightOnHover data-testid="templates-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Название</Table.Th>
            <Table.Th>Содержимое</Table.Th>
            <Table.Th>По умолчанию для</Table.Th>
            <Table.Th>Изменён</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {templates.map((t) => (
            <Table.Tr key={t.id}>
              <Table.Td fw={500}>{t.title}</Table.Td>
              <Table.Td maw={360}>
                <Content t={t} />
              </Table.Td>
              <Table.Td>
                <Defaults t={t} />
              </Table.Td>
              <Table.Td>
                <Text size="sm">{formatDateTime(t.updated_at)}</Text>
              </Table.Td>
              <Table.Td>
                <Actions t={t} onAction={onAction} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
