import { useEffect } from 'react';
import { Button, Group, Modal, Select, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { rubricBody, type Rubric } from '@edu/domain/publication-categories/publication-category';
import { submitChecked } from '../../../lib/submit-checked';
import { useSaveRubric, useSiteCategories } from '../api/rubrics';

interface Values {
  fdv: string;
  alias: string;
  description: string;
  joomla_category_id: string;
}

const EMPTY: Values = { fdv: '', alias: '', description: '', joomla_category_id: '' };

/** The rubric modal: name, alias, description and the matching category of the site (a list when the CMS answers, else its id). */
export function RubricModal({ rubric, onClose }: { rubric: Rubric | null | undefined; onClose: () => void }) {
  const save = useSaveRubric();
  const opened = rubric !== undefined;
  const site = useSiteCategories(opened);
  const form = useForm<Values>({ initialValues: EMPTY });
  useEffect(() => {
    if (!opened) return;
    form.setValues(
      rubric ? { fdv: rubric.fdv, alias: rubric.alias ?? '', description: rubric.description ?? '', joomla_category_id: rubric.joomla_category_id ? String(rubric.joomla_category_id) : '' } : EMPTY,
    );
    form.clearErrors();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened, rubric?.id]);

  async function submit(values: Values) {
    const body = { ...values };
    if (await submitChecked(form.setErrors, rubricBody, body, () => save.mutateAsync({ id: rubric?.id ?? null, body }))) onClose();
  }

  const siteOptions = (site.data ?? []).map((c) => ({ value: String(c.id), label: `${c.title} (#${c.id})` }));
  const current = form.values.joomla_category_id;
  if (current && site.data && !siteOptions.some((o) => o.value === current)) siteOptions.unshift({ value: current, label: `#${current}` });

  return (
    <Modal opened={opened} onClose={onClose} title={rubric ? `Рубрика: ${rubric.fdv}` : 'Новая рубрика'} centered size="lg">
      <form onSubmit={form.onSubmit(submit)} noValidate>
        <Stack gap="sm">
          <TextInput label="Название" withAsterisk data-autofocus {...form.getInputProps('fdv')} />
          <TextInput label="Alias" description="Адрес рубрики на сайте: латиница, цифры, дефис" {...form.getInputProps('alias')} />
          <Textarea label="Описание" autosize minRows={3} maxRows={8} {...form.getInputProps('description')} />
          {site.isSuccess ? (
            <Select
              label="Категория на сайте"
              data={siteOptions}
              searchable
              clearable
              placeholder="Не выбрана"
              nothingFoundMessage="Ничего не найдено"
              value={current || null}
              onChange={(v) => form.setFieldValue('joomla_category_id', v ?? '')}
              error={form.errors.joomla_category_id}
            />
          ) : (
            <TextInput label="Категория на сайте (id)" inputMode="numeric" {...form.getInputProps('joomla_category_id')} />
          )}
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
