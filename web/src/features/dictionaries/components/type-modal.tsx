import { useEffect } from 'react';
import { Button, Checkbox, Group, Modal, NumberInput, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { serviceTypeBody } from '@edu/domain/dictionaries/dictionary-saves';
import type { ServiceTypeItem } from '../../../lib/dictionaries';
import { useSaveDictionaryItem } from '../api/save-dictionary-item';
import { ColorSelect, IconSelect } from './icon-select';
import { SiteItemSelect } from '../../../components/site-item-select';
import { submitChecked } from '../../../lib/submit-checked';

interface Values {
  fdv: string;
  dv: string;
  points: number | string;
  description: string;
  icon: string | null;
  color: string | null;
  is_contract_needed: boolean;
  is_publication: boolean;
  joomla_category_id: number | string;
}

type TypeRow = ServiceTypeItem & { dv?: string | null; is_contract_needed?: boolean; joomla_category_id?: number | null };

const blank: Values = {
  fdv: '',
  dv: '',
  points: 0,
  description: '',
  icon: null,
  color: null,
  is_contract_needed: false,
  is_publication: false,
  joomla_category_id: '',
};

/**
 * The service type modal (spec 02 §7): name, points, description, icon, colour, flags, the site's
 * category (chosen by name). The code (dv) is not shown: it is kept as it was.
 */
export function TypeModal({ item, onClose }: { item: TypeRow | null | undefined; onClose: () => void }) {
  const save = useSaveDictionaryItem('dict_service_types');
  const form = useForm<Values>({ initialValues: blank });
  const opened = item !== undefined;
  useEffect(() => {
    if (!opened) return;
    form.setValues(
      item
        ? {
            fdv: item.fdv,
            dv: item.dv ?? '',
            points: item.points ?? 0,
            description: item.description ?? '',
            icon: item.icon,
            color: item.color,
            is_contract_needed: Boolean(item.is_contract_needed),
            is_publication: Boolean(item.is_publication),
            joomla_category_id: item.joomla_category_id ?? '',
          }
        : blank,
    );
    form.clearErrors();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened, item?.id]);

  async function submit(values: Values) {
    const body = { ...values };
    const ok = await submitChecked(form.setErrors, serviceTypeBody, body, () => save.mutateAsync({ id: item?.id ?? null, body }));
    if (ok) onClose();
  }

  return (
    <Modal opened={opened} onClose={onClose} title={item ? `Тип услуги: ${item.fdv}` : 'Новый тип услуги'} size="lg" centered>
      <form onSubmit={form.onSubmit(submit)} noValidate>
        <Stack gap="sm">
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput label="Название" withAsterisk {...form.getInputProps('fdv')} />
            <NumberInput label="Баллы" min={0} max={1000} allowDecimal={false} {...form.getInputProps('points')} />
            <SiteItemSelect
              kind="categories"
              label="Категория на сайте"
              value={form.values.joomla_category_id}
              onChange={(v) => form.setFieldValue('joomla_category_id', v)}
              error={form.errors.joomla_category_id}
            />
            <IconSelect label="Иконка" {...form.getInputProps('icon')} />
            <ColorSelect label="Цвет" {...form.getInputProps('color')} />
          </SimpleGrid>
          <Textarea label="Описание" autosize minRows={2} maxRows={6} {...form.getInputProps('description')} />
          <Group gap="lg">
            <Checkbox label="Нужен договор" {...form.getInputProps('is_contract_needed', { type: 'checkbox' })} />
            <Checkbox label="Публикация" {...form.getInputProps('is_publication', { type: 'checkbox' })} />
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
