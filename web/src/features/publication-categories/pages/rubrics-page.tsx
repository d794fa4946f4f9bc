import { useState } from 'react';
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { RubricMessages, type Rubric } from '@edu/domain/publication-categories/publication-category';
import { DataList, type ListColumn } from '../../../components/data-list';
import { ConfirmAction, EditAction } from '../../../components/row-actions';
import { errorMessage } from '../../../lib/api-client';
import { useDictionary } from '../../../lib/dictionaries';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useNarrow } from '../../../lib/use-narrow';
import { useDeleteRubric } from '../api/rubrics';
import { RubricModal } from '../components/rubric-modal';

/** /manager/publication-categories: 'Рубрики публикаций' (spec 03 §2): Название, Описание (no ids or aliases: people read names). */
export function RubricsPage() {
  useDocumentTitle(RubricMessages.title);
  const narrow = useNarrow();
  const rubrics = useDictionary('dict_publication_categories');
  const remove = useDeleteRubric();
  const [editing, setEditing] = useState<Rubric | null | undefined>(undefined);
  const columns: Array<ListColumn<Rubric>> = [
    {
      key: 'fdv',
      label: 'Название',
      card: 'title',
      width: 320,
      render: (r) => (
        <Text size="sm" fw={500}>
          {r.fdv}
        </Text>
      ),
    },
    {
      key: 'description',
      label: 'Описание',
      render: (r) => (
        <Text size="sm" lineClamp={2}>
          {r.description || '—'}
        </Text>
      ),
    },
    {
      key: 'actions',
      label: 'Действия',
      card: 'footer',
      align: 'right',
      width: 120,
      render: (r) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <EditAction label={r.fdv} onClick={() => setEditing(r)} />
          <ConfirmAction label={r.fdv} onConfirm={() => remove.mutateAsync(r.id)} />
        </Group>
      ),
    },
  ];
  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={2}>{RubricMessages.title}</Title>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing(null)}>
          Добавить
        </Button>
      </Group>
      <DataList
        rows={rubrics.data as Rubric[] | undefined}
        columns={columns}
        rowKey={(r) => r.id}
        narrow={narrow}
        loading={rubrics.isPending}
        error={rubrics.isError ? errorMessage(rubrics.error) : null}
        testId="rubrics"
        itemTestId="rubric"
      />
      <RubricModal rubric={editing} onClose={() => setEditing(undefined)} />
    </Stack>
  );
}
