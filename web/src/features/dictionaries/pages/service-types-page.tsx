import { useState } from 'react';
import { Badge, Button, Group, Select, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { DataList, type ListColumn } from '../../../components/data-list';
import { NamedIcon } from '../../../components/named-icon';
import { errorMessage } from '../../../lib/api-client';
import { useDictionary, type ServiceTypeItem } from '../../../lib/dictionaries';
import { siteItemName, useSiteLookup } from '../../../lib/site-lookups';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useNarrow } from '../../../lib/use-narrow';
import { useDeleteDictionaryItem } from '../api/save-dictionary-item';
import { DeleteButton } from '../components/delete-button';
import { EditButton } from '../components/edit-button';
import { SubtypeModal, type SubtypeRow } from '../components/subtype-modal';
import { TypeModal } from '../components/type-modal';

type TypeRow = ServiceTypeItem & { dv?: string | null; is_contract_needed?: boolean; joomla_category_id?: number | null };

const flag = (on: boolean | undefined, label: string, color: string) =>
  on ? (
    <Badge key={label} variant="light" color={color} tt="none" size="sm">
      {label}
    </Badge>
  ) : null;

/** /manager/service-types (spec 02 §2 Dictionary lists): types and their subtypes, each with the edit modal. */
export function ServiceTypesPage() {
  useDocumentTitle('Типы услуг');
  const narrow = useNarrow();
  const types = useDictionary('dict_service_types');
  const subtypes = useDictionary('dict_service_subtypes');
  const deleteType = useDeleteDictionaryItem('dict_service_types');
  const deleteSubtype = useDeleteDictionaryItem('dict_service_subtypes');
  const [editingType, setEditingType] = useState<TypeRow | null | undefined>(undefined);
  const [editingSubtype, setEditingSubtype] = useState<SubtypeRow | null | undefined>(undefined);
  const [typeFilter, setTypeFilter] = useState<string | null>(null);
  const typeList = (types.data ?? []) as TypeRow[];
  const typeName = new Map(typeList.map((t) => [t.id, t.fdv]));
  const siteCategories = useSiteLookup('categories');
  const siteTags = useSiteLookup('tags');
  const subtypeCount = (id: number) => (subtypes.data ?? []).filter((s) => s.dict_service_type_id === id).length;

  const typeColumns: Array<ListColumn<TypeRow>> = [
    {
      key: 'fdv',
      label: 'Тип',
      card: 'title',
      render: (t) => (
        <Group gap="sm" wrap="nowrap">
          <ThemeIcon variant="light" color={t.color ?? 'gray'} size={34} radius="md">
            <NamedIcon name={t.icon} size={20} />
          </ThemeIcon>
          <Text size="sm" fw={600}>
            {t.fdv}
          </Text>
        </Group>
      ),
    },
    { key: 'points', label: 'Баллы', card: 'aside', render: (t) => <Text size="sm">{t.points}</Text> },
    {
      key: 'flags',
      label: 'Признаки',
      render: (t) => <Group gap={4}>{[flag(t.is_contract_needed, 'Договор', 'blue'), flag(t.is_publication, 'Публикация', 'orange')]}</Group>,
    },
    { key: 'site', label: 'Категория на сайте', render: (t) => siteItemName(siteCategories, t.joomla_category_id) },
    { key: 'subtypes', label: 'Подтипов', render: (t) => String(subtypeCount(t.id)) },
    {
      key: 'actions',
      label: 'Действия',
      card: 'footer',
      align: 'right',
      render: (t) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <EditButton label={t.fdv} onClick={() => setEditingType(t)} />
          <DeleteButton label={t.fdv} onDelete={() => deleteType.mutateAsync(t.id)} />
        </Group>
      ),
    },
  ];

  const subtypeRows = ((subtypes.data ?? []) as SubtypeRow[]).filter((s) => !typeFilter || s.dict_service_type_id === Number(typeFilter));
  const subtypeColumns: Array<ListColumn<SubtypeRow>> = [
    {
      key: 'fdv',
      label: 'Подтип',
      card: 'title',
      render: (s) => (
        <Text size="sm" fw={600}>
          {s.fdv}
        </Text>
      ),
    },
    { key: 'type', label: 'Тип', render: (s) => typeName.get(s.dict_service_type_id) ?? '—' },
    { key: 'points', label: 'Баллы', card: 'aside', render: (s) => String(s.points) },
    { key: 'spb', label: 'Город', render: (s) => (s.is_spb === 1 ? 'Санкт-Петербург' : s.is_spb === 0 ? 'Другие города' : 'Любой') },
    {
      key: 'flags',
      label: 'Признаки',
      render: (s) => <Group gap={4}>{[flag(s.is_publication, 'Публикация', 'orange'), flag(s.publication_has_file, 'С файлом', 'gray')]}</Group>,
    },
    {
      key: 'site',
      label: 'На сайте',
      render: (s) =>
        [
          s.joomla_category_id ? `категория: ${siteItemName(siteCategories, s.joomla_category_id)}` : null,
          s.joomla_tag_id ? `тег: ${siteItemName(siteTags, s.joomla_tag_id)}` : null,
        ]
          .filter(Boolean)
          .join(', ') || '—',
    },
    {
      key: 'actions',
      label: 'Действия',
      card: 'footer',
      align: 'right',
      render: (s) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <EditButton label={s.fdv} onClick={() => setEditingSubtype(s)} />
          <DeleteButton label={s.fdv} onDelete={() => deleteSubtype.mutateAsync(s.id)} />
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={2}>Типы услуг</Title>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditingType(null)}>
          Добавить тип
        </Button>
      </Group>
      <DataList
        rows={typeList}
        columns={typeColumns}
        rowKey={(t) => t.id}
        narrow={narrow}
        loading={types.isPending}
        error={types.isError ? errorMessage(types.error) : null}
        testId="types"
        itemTestId="type"
        minWidth={900}
      />
      <Group justify="space-between" align="flex-end" mt="md">
        <Title order={3}>Подтипы</Title>
        <Group gap="sm" align="flex-end">
          <Select
            aria-label="Тип услуги"
            placeholder="Все типы"
            data={typeList.map((t) => ({ value: String(t.id), label: t.fdv }))}
            value={typeFilter}
            onChange={setTypeFilter}
            clearable
            w={260}
          />
          <Button variant="light" leftSection={<IconPlus size={16} />} onClick={() => setEditingSubtype(null)}>
            Добавить подтип
          </Button>
        </Group>
      </Group>
      <DataList
        rows={subtypeRows}
        columns={subtypeColumns}
        rowKey={(s) => s.id}
        narrow={narrow}
        loading={subtypes.isPending}
        error={subtypes.isError ? errorMessage(subtypes.error) : null}
        testId="subtypes"
        itemTestId="subtype"
        minWidth={900}
      />
      <TypeModal item={editingType} onClose={() => setEditingType(undefined)} />
      <SubtypeModal item={editingSubtype} typeId={typeFilter ? Number(typeFilter) : null} types={typeList} onClose={() => setEditingSubtype(undefined)} />
    </Stack>
  );
}
