import { useEffect } from 'react';
import { Button, Checkbox, Group, Modal, NumberInput, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { serviceSubtypeBody } from '@edu/domain/dictionaries/dictionary-saves';
import type { ServiceSubtypeItem, ServiceTypeItem } from '../../../lib/dictionaries';
import { useSaveDictionaryItem } from '../api/save-dictionary-item';
import { submitChecked } from '../../../lib/submit-checked';
import { SiteItemSelect } from '../../../components/site-item-select';

interface Values {
  fdv: string;
  dv: string;
  dict_service_type_id: string | null;
  points: number | string;
  is_spb: string | null;
  is_publication: boolean;
  publication_has_file: boolean;
  joomla_category_id: number | string;
  joomla_tag_id: number | string;
}

export type SubtypeRow = ServiceSubtypeItem & {
  dv?: string | null;
  is_spb?: number | null;
  publication_has_file?: boolean;
  joomla_category_id?: number | null;
  joomla_tag_id?: number | null;
};

const spbOptions = [
  { value: '1', label: 'Санкт-Петербург' },
  { value: '0', label: 'Другие города' },
];

/** The subtype modal: name, its type, points, city, flags, the site's category or tag (by name); the code (dv) is kept as it was. */
export function SubtypeModal({
  item,
  typeId,
  types,
  onClose,
}: {
  item: SubtypeRow | null | undefined;
  typeId: number | null;
  types: ServiceTypeItem[];
  onClose: () => void;
}) {
  const save = useSaveDictionaryItem('dict_service_subtypes');
  const blank: Values = {
    fdv: '',
    dv: '',
    dict_service_type_id: typeId ? String(typeId) : null,
    points: 0,
    is_spb: null,
    is_publication: false,
    publication_has_file: false,
    joomla_category_id: '',
    joomla_tag_id: '',
  };
  const form = useForm<Values>({ initialValues: blank });
  const opened = item !== undefined;
  useEffect(() => {
    if (!opened) return;
    form.setValues(
      item
        ? {
            fdv: item.fdv,
            dv: item.dv ?? '',
            dict_service_type_id: String(item.dict_service_type_id),
            points: item.points ?? 0,
            is_spb: item.is_spb === null || item.is_spb === undefined ? null : String(item.is_spb),
            is_publication: Boolean(item.is_publication),
            publication_has_file: Boolean(item.publication_has_file),
            joomla_category_id: item.joomla_category_id ?? '',
            joomla_tag_id: item.joomla_tag_id ?? '',
          }
        : blank,
    );
    form.clearErrors();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened, item?.id, typeId]);

  async function submit(values: Values) {
    const body = { ...values, dict_service_type_id: values.dict_service_type_id ? Number(values.dict_service_type_id) : null };
    const ok = await submitChecked(form.setErrors, serviceSubtypeBody, body, () => save.mutateAsync({ id: item?.id ?? null, body }));
    if (ok) onClose();
  }

  return (
    <Modal opened={opened} onClose={onClose} title={item ? `Подтип: ${item.fdv}` : 'Новый подтип'} size="lg" centered>
      <form onSubmit={form.onSubmit(submit)} noValidate>
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput label="Название" withAsterisk {...form.getInputProps('fdv')} />
            <Select
              label="Тип услуги"
              withAsterisk
              data={types.map((t) => ({ value: String(t.id), label: t.fdv }))}
              allowDeselect={false}
              {...form.getInputProps('dict_service_type_id')}
            />
            <NumberInput label="Баллы" min={0} max={1000} allowDecimal={false} {...form.getInputProps('points')} />
            <Select label="Город" placeholder="Любой" data={spbOptions} clearable {...form.getInputProps('is_spb')} />
            <SiteItemSelect
              kind="categories"
              label="Категория на сайте"
              value={form.values.joomla_category_id}
              onChange={(v) => form.setFieldValue('joomla_category_id', v)}
              error={form.errors.joomla_category_id}
            />
            <SiteItemSelect
              kind="tags"
              label="Тег на сайте"
              value={form.values.joomla_tag_id}
              onChange={(v) => form.setFieldValue('joomla_tag_id', v)}
              error={form.errors.joomla_tag_id}
            />
          </SimpleGrid>
          <Group gap="lg">
            <Checkbox label="Публикация" {...form.getInputProps('is_publication', { type: 'checkbox' })} />
            <Checkbox label="Публикация с файлом" {...form.getInputProps('publication_has_file', { type: 'checkbox' })} />
          </Group>
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
