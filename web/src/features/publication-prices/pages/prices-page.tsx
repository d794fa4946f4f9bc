import { useState } from 'react';
import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { PriceMessages, type PublicationPrice } from '@edu/domain/publication-prices/publication-price';
import { formatRub } from '@edu/domain/common/format';
import { DataList, type ListColumn } from '../../../components/data-list';
import { ConfirmAction, EditAction } from '../../../components/row-actions';
import { errorMessage } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useNarrow } from '../../../lib/use-narrow';
import { useDeletePrice, usePrices } from '../api/prices';
import { PriceModal } from '../components/price-modal';

/** /manager/publication-prices: 'Цены публикаций' (spec 03 §2): #, Тип, Кол-во авторов, Цена. */
export function PricesPage() {
  useDocumentTitle(PriceMessages.title);
  const narrow = useNarrow();
  const prices = usePrices();
  const remove = useDeletePrice();
  const [editing, setEditing] = useState<PublicationPrice | null | undefined>(undefined);
  const label = (p: PublicationPrice) => `${p.subtype?.fdv ?? ''}, авторов: ${p.authors_num}`;
  const columns: Array<ListColumn<PublicationPrice>> = [
    {
      key: 'id',
      label: '#',
      card: 'aside',
      width: 80,
      render: (p) => (
        <Text size="sm" c="dimmed">
          #{p.id}
        </Text>
      ),
    },
    {
      key: 'type',
      label: 'Тип',
      card: 'title',
      render: (p) => (
        <Text size="sm" fw={500}>
          {p.subtype?.fdv ?? '—'}
        </Text>
      ),
    },
    { key: 'authors', label: 'Кол-во авторов', width: 160, render: (p) => String(p.authors_num) },
    {
      key: 'price',
      label: 'Цена',
      width: 140,
      nowrap: true,
      render: (p) => (
        <Text size="sm" fw={600}>
          {formatRub(p.price)}
        </Text>
      ),
    },
    {
      key: 'actions',
      label: 'Действия',
      card: 'footer',
      align: 'right',
      width: 120,
      render: (p) => (
        <Group gap={4} justify="flex-end" wrap="nowrap">
          <EditAction label={label(p)} onClick={() => setEditing(p)} />
          <ConfirmAction label={label(p)} onConfirm={() => remove.mutateAsync(p.id)} />
        </Group>
      ),
    },
  ];
  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={2}>{PriceMessages.title}</Title>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing(null)}>
          Добавить
        </Button>
      </Group>
      <DataList
        rows={prices.data}
        columns={columns}
        rowKey={(p) => p.id}
        narrow={narrow}
        loading={prices.isPending}
        error={prices.isError ? errorMessage(prices.error) : null}
        testId="prices"
        itemTestId="price"
      />
      <PriceModal price={editing} onClose={() => setEditing(undefined)} />
    </Stack>
  );
}
