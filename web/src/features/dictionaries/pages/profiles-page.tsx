import { useEffect, useState } from 'react';
import { Badge, Button, Group, Modal, Stack, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPlus } from '@tabler/icons-react';
import { profileBody } from '@edu/domain/dictionaries/dictionary-saves';
import { DataList, type ListColumn } from '../../../components/data-list';
import { errorMessage } from '../../../lib/api-client';
import { useDictionary, type ProfileItem } from '../../../lib/dictionaries';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useNarrow } from '../../../lib/use-narrow';
import { useDeleteDictionaryItem, useSaveDictionaryItem } from '../api/save-dictionary-item';
import { DeleteButton } from '../components/delete-button';
import { EditButton } from '../components/edit-button';
import { ColorSelect } from '../components/icon-select';
import { submitChecked } from '../../../lib/submit-checked';
import { siteItemName, useSiteLookup } from '../../../lib/site-lookups';
import { SiteItemSelect } from '../../../components/site-item-select';

type ProfileRow = ProfileItem & { joomla_tag_id?: number | null };

interface Values {
  fdv: string;
  color: string | null;
  joomla_tag_id: number | string;
}

/** The profile modal: name, badge colour, the site's tag (chosen by name). */
function ProfileModal({ item, onClose }: { item: ProfileRow | null | undefined; onClose: () => void }) {
  const save = useSaveDictionaryItem('dict_profiles');
  const form = useForm<Values>({ initialValues: { fdv: '', color: null, joomla_tag_id: '' } });
  const opened = item !== undefined;
  useEffect(() => {
    if (!opened) return;
    form.setValues(item ? { fdv: item.fdv, color: item.color, joomla_tag_id: item.joomla_tag_id ?? '' } : { fdv: '', color: null, joomla_tag_id: '' });
    form.clearErrors();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened, item?.id]);
  async function submit(values: Values) {
    const body = { ...values };
    if (await submitChecked(form.setErrors, profileBody, body, () => save.mutateAsync({ id: item?.id ?? null, body }))) onClose();
  }
  return (
    <Modal opened={opened} onClose={onClose} title={item ? `Профиль: ${item.fdv}` : 'Новый профиль'} centered>
      <form onSubmit={form.onSubmit(submit)} noValidate>
        <Stack gap="sm">
          <TextInput label="Название" withAsterisk {...form.getInputProps('fdv')} />
          <ColorSelect label="Цвет" {...form.getInputProps('color')} />
          <SiteItemSelect
            kind="tags"
            label="Тег на сайте"
            value={form.values.joomla_tag_id}
            onChange={(v) => form.setFieldValue('joomla_tag_id', v)}
            error={form.errors.joomla_tag_id}
          />
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

/** /manager/profiles: work profiles with the edit modal. */
export function ProfilesPage() {
  useDocumentTitle('Профили');
  const narrow = useNarrow();
  const profiles = useDictionary('dict_profiles');
  const remove = useDeleteDictionaryItem('dict_profiles');
  const siteTags = useSiteLookup('tags');
  const [editing, setEditing] = useState<ProfileRow | null | undefined>(undefined);
  const columns: Array<ListColumn<ProfileRow>> = [
    {
      key: 'fdv',
      label: 'Профиль',
      card: 'title',
      render: (p) => (
        <Badge color={p.color ?? 'gray'} variant="light" tt="none" size="lg">
          {p.fdv}
        </Badge>
      ),
    },
    { key: 'site', label: 'Тег на сайте', render: (p) => siteItemName(siteTags, p.joomla_tag_id) },
    {
      key: 'actions',
      label: 'Действия',
      card: 'footer',
      align: 'right',
      render: (p) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <EditButton label={p.fdv} onClick={() => setEditing(p)} />
          <DeleteButton label={p.fdv} onDelete={() => remove.mutateAsync(p.id)} />
        </Group>
      ),
    },
  ];
  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={2}>Профили</Title>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing(null)}>
          Добавить
        </Button>
      </Group>
      <DataList
        rows={(profiles.data ?? []) as ProfileRow[]}
        columns={columns}
        rowKey={(p) => p.id}
        narrow={narrow}
        loading={profiles.isPending}
        error={profiles.isError ? errorMessage(profiles.error) : null}
        testId="profiles"
        itemTestId="profile"
      />
      <ProfileModal item={editing} onClose={() => setEditing(undefined)} />
    </Stack>
  );
}
