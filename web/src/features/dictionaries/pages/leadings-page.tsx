import { useEffect, useState } from 'react';
import { ActionIcon, Anchor, Button, Group, Modal, Stack, Text, Textarea, TextInput, Tooltip } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconExternalLink, IconPlus } from '@tabler/icons-react';
import { leadingBody, leadingListQuery, type Leading } from '@edu/domain/dictionaries/dictionary-saves';
import type { ListColumn } from '../../../components/data-list';
import type { FilterField } from '../../../components/filter-fields';
import { ListPage } from '../../../components/list-page';
import { useListParams } from '../../../components/use-list-params';
import { useDeleteLeading, useLeadings, useSaveLeading } from '../api/leadings';
import { DeleteButton } from '../components/delete-button';
import { EditButton } from '../components/edit-button';
import { submitChecked } from '../../../lib/submit-checked';

interface Values {
  fio: string;
  description: string;
  url: string;
}

/** The leading person modal: fio required (its server error under the field), description, link. */
function LeadingModal({ item, onClose }: { item: Leading | null | undefined; onClose: () => void }) {
  const save = useSaveLeading();
  const form = useForm<Values>({ initialValues: { fio: '', description: '', url: '' } });
  const opened = item !== undefined;
  useEffect(() => {
    if (!opened) return;
    form.setValues(item ? { fio: item.fio, description: item.description ?? '', url: item.url ?? '' } : { fio: '', description: '', url: '' });
    form.clearErrors();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened, item?.id]);
  async function submit(values: Values) {
    if (await submitChecked(form.setErrors, leadingBody, { ...values }, () => save.mutateAsync({ id: item?.id ?? null, body: values }))) onClose();
  }
  return (
    <Modal opened={opened} onClose={onClose} title={item ? 'Ведущий' : 'Новый ведущий'} centered size="lg">
      <form onSubmit={form.onSubmit(submit)} noValidate>
        <Stack gap="sm">
          <TextInput label="ФИО" withAsterisk {...form.getInputProps('fio')} />
          <Textarea label="Описание" autosize minRows={3} maxRows={8} {...form.getInputProps('description')} />
          <TextInput label="Ссылка" placeholder="https://" {...form.getInputProps('url')} />
          <Group justify="flex-end" gap="sm" mt="sm">
            <Button variant="default" onClick={onClose}>
              Отмена
            </Button>
            <Button type="submit" loading={save.isPending}>
              Сохранить
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** /manager/leadings (spec 02 §2): fio, description, link; add/edit modal, open link, delete; 100 per page. */
export function LeadingsPage() {
  const params = useListParams(leadingListQuery, { per_page: '100' });
  const list = useLeadings(params.query);
  const remove = useDeleteLeading();
  const [editing, setEditing] = useState<Leading | null | undefined>(undefined);
  const filters: FilterField[] = [{ name: 'fio', label: 'ФИО', kind: 'text', placeholder: 'Поиск по ФИО' }];
  const columns: Array<ListColumn<Leading>> = [
    {
      key: 'fio',
      label: 'ФИО',
      card: 'title',
      maxWidth: 280,
      render: (l) => (
        <Text size="sm" fw={600}>
          {l.fio}
        </Text>
      ),
    },
    {
      key: 'description',
      label: 'Описание',
      maxWidth: 420,
      render: (l) => (
        <Text size="sm" lineClamp={3}>
          {l.description ?? '—'}
        </Text>
      ),
    },
    {
      key: 'url',
      label: 'Ссылка',
      maxWidth: 240,
      render: (l) =>
        l.url ? (
          <Anchor href={l.url} target="_blank" rel="noopener noreferrer" size="sm" style={{ overflowWrap: 'anywhere' }}>
            {l.url}
          </Anchor>
        ) : (
          '—'
        ),
    },
    { key: 'services', label: 'Услуг', card: 'aside', render: (l) => String(l.services_count) },
    {
      key: 'actions',
      label: 'Действия',
      card: 'footer',
      align: 'right',
      render: (l) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          {l.url && (
            <Tooltip label="Открыть ссылку">
              <ActionIcon
                component="a"
                href={l.url}
                target="_blank"
                rel="noopener noreferrer"
                variant="subtle"
                color="gray"
                aria-label={`Открыть ссылку: ${l.fio}`}
              >
                <IconExternalLink size={18} />
              </ActionIcon>
            </Tooltip>
          )}
          <EditButton label={l.fio} onClick={() => setEditing(l)} />
          <DeleteButton label={l.fio} onDelete={() => remove.mutateAsync(l.id)} />
        </Group>
      ),
    },
  ];
  return (
    <ListPage
      title="Ведущие"
      actions={
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing(null)}>
          Добавить
        </Button>
      }
      filters={filters}
      params={params}
      list={list}
      columns={columns}
      testId="leadings"
      itemTestId="leading"
      minWidth={900}
    >
      <LeadingModal item={editing} onClose={() => setEditing(undefined)} />
    </ListPage>
  );
}
