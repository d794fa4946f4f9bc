import { useEffect } from 'react';
import { Button, Group, Modal, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { rubricBody, type Rubric } from '@edu/domain/publication-categories/publication-category';
import { submitChecked } from '../../../lib/submit-checked';
import { SiteItemSelect } from '../../../components/site-item-select';
import { useSaveRubric } from '../api/rubrics';

interface Values {
  fdv: string;
  alias: string;
  description: string;
  joomla_category_id: string;
}

const EMPTY: Values = { fdv: '', alias: '', description: '', joomla_category_id: '' };

/** The rubric modal: name, alias (its address on the site), description and the matching category of the site, chosen by name. */
export function RubricModal({ rubric, onClose }: { rubric: Rubric | null | undefined; onClose: () => void }) {
  const save = useSaveRubric();
  const opened = rubric !== undefined;
  const form = useForm<Values>({ initialValues: EMPTY });
  useEffect(() => {
    if (!opened) return;
    form.setValues(
      rubric
        ? {
            fdv: rubric.fdv,
            alias: rubric.alias ?? '',
            description: rubric.description ?? '',
            joomla_category_id: rubric.joomla_category_id ? String(rubric.joomla_category_id) : '',
          }
        : EMPTY,
    );
    form.clearErrors();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened, rubric?.id]);

  async function submit(values: Values) {
    const body = { ...values };
    if (await submitChecked(form.setErrors, rubricBody, body, () => save.mutateAsync({ id: rubric?.id ?? null, body }))) onClose();
  }

  return (
    <Modal opened={opened} onClose={onClose} title={rubric ? `Рубрика: ${rubric.fdv}` : 'Новая рубрика'} centered size="lg">
      <form onSubmit={form.onSubmit(submit)} noValidate>
        <Stack gap="sm">
          <TextInput label="Название" withAsterisk data-autofocus {...form.getInputProps('fdv')} />
          <TextInput label="Адрес на сайте" description="Часть адреса страницы рубрики: латинские буквы, цифры, дефис" {...form.getInputProps('alias')} />
          <Textarea label="Описание" autosize minRows={3} maxRows={8} {...form.getInputProps('description')} />
          <SiteItemSelect
            kind="categories"
            system="journal"
            label="Категория на сайте журнала"
            value={form.values.joomla_category_id}
            onChange={(v) => form.setFieldValue('joomla_category_id', v)}
            error={form.errors.joomla_category_id}
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
