import { useEffect } from 'react';
import { Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { releaseBody, ReleaseMessages, type Release } from '@edu/domain/releases/release';
import { useDictionary } from '../../../lib/dictionaries';
import { submitChecked } from '../../../lib/submit-checked';
import { useSaveRelease } from '../api/releases';

interface Values {
  title: string;
  dict_service_subtype_id: string | null;
  url: string;
  url_contents: string;
}

const EMPTY: Values = { title: '', dict_service_subtype_id: null, url: '', url_contents: '' };

/** The 'Выпуск' modal: title, subtype among the publication subtypes, link to the collection and to its contents. */
export function ReleaseModal({ release, onClose }: { release: Release | null | undefined; onClose: () => void }) {
  const save = useSaveRelease();
  const subtypes = useDictionary('dict_service_subtypes');
  const form = useForm<Values>({ initialValues: EMPTY });
  const opened = release !== undefined;
  useEffect(() => {
    if (!opened) return;
    form.setValues(
      release
        ? {
            title: release.title,
            dict_service_subtype_id: release.dict_service_subtype_id ? String(release.dict_service_subtype_id) : null,
            url: release.url ?? '',
            url_contents: release.url_contents ?? '',
          }
        : EMPTY,
    );
    form.clearErrors();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened, release?.id]);
  const options = (subtypes.data ?? []).filter((s) => s.is_publication).map((s) => ({ value: String(s.id), label: s.fdv }));

  async function submit(values: Values) {
    const body = { ...values, dict_service_subtype_id: values.dict_service_subtype_id ? Number(values.dict_service_subtype_id) : undefined };
    if (await submitChecked(form.setErrors, releaseBody, body, () => save.mutateAsync({ id: release?.id ?? null, body }))) onClose();
  }

  return (
    <Modal opened={opened} onClose={onClose} title={ReleaseMessages.modalTitle} centered>
      <form onSubmit={form.onSubmit(submit)} noValidate>
        <Stack gap="sm">
          <TextInput label="Название" withAsterisk data-autofocus {...form.getInputProps('title')} />
          <Select
            label="Тип публикации"
            withAsterisk
            data={options}
            placeholder="Выберите тип"
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
            {...form.getInputProps('dict_service_subtype_id')}
          />
          <TextInput label="Ссылка на сборник" placeholder="https://" {...form.getInputProps('url')} />
          <TextInput label="Ссылка на содержание" placeholder="https://" {...form.getInputProps('url_contents')} />
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
