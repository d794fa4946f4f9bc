import type { CSSProperties, Key, ReactNode } from 'react';
import { Group, Stack, Text, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { COUNT_CAP, totalLabel, type Paginated } from '@edu/domain/common/pagination';
import { errorMessage } from '../lib/api-client';
import { useDocumentTitle } from '../lib/use-document-title';
import { useNarrow } from '../lib/use-narrow';
import { DataList, type ListColumn } from './data-list';
import { FilterFields, type FilterField } from './filter-fields';
import { ListPagination } from './list-pagination';
import type { ListParams } from './use-list-params';

export interface ListPageProps<T> {
  title: string;
  /** Buttons beside the title (e.g. 'Добавить'). */
  actions?: ReactNode;
  /** The filters, read from and written to the URL. */
  filters?: FilterField[];
  params: ListParams;
  /** The list's query (TanStack Query, with keepPreviousData so pages do not flash). */
  list: UseQueryResult<Paginated<T>>;
  columns: Array<ListColumn<T>>;
  rowKey?: (row: T) => Key;
  rowStyle?: (row: T) => CSSProperties | undefined;
  empty?: ReactNode;
  testId: string;
  itemTestId?: string;
  minWidth?: number;
  /** A fixed table layout (DataList's `fixed`). */
  fixed?: boolean;
  /** Shown between the filters and the list (banners, tabs). */
  above?: ReactNode;
  /** Modals and other things the page owns. */
  children?: ReactNode;
  /** Page size choice 15/30/100 (default on). */
  pageSizes?: boolean;
  /** Where the server stops counting (it answers cap + 1, shown as «более …»); COUNT_CAP by default. */
  countCap?: number;
  /** The server's order without `?sort=` (its column's header shows the arrow). */
  defaultSort?: string;
}

/**
 * An operator list page: title with the total, filters kept in the URL, the list as a table above
 * 1199 px and cards at or below, skeleton, empty state and pagination. A page is then a description
 * of its columns and filters.
 */
export function ListPage<T extends { id?: Key }>({
  title,
  actions,
  filters,
  params,
  list,
  columns,
  rowKey = (row) => row.id as Key,
  rowStyle,
  empty,
  testId,
  itemTestId,
  minWidth,
  fixed,
  above,
  children,
  pageSizes = true,
  countCap = COUNT_CAP,
  defaultSort,
}: ListPageProps<T>) {
  useDocumentTitle(title);
  const narrow = useNarrow();
  // A filter the list's schema refuses (a hand-typed or linked value): its message, not a list that ignores it.
  // Named by the filter's label where the page shows that filter («Id записи: Введите число»).
  const refused = Object.entries(params.refused).map(([name, message]) => {
    const label = filters?.find((f) => f.name === name)?.label;
    return label ? `${label}: ${message}` : message;
  });
  const refusedMessage = refused.length > 0 ? [...new Set(refused)].join('. ') : null;
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="center" gap="sm">
        <Group align="baseline" gap="md">
          <Title order={2}>{title}</Title>
          {list.data && !refusedMessage && (
            <Text size="sm" c="dimmed" data-testid={`${testId}-total`}>
              Всего: {totalLabel(list.data.meta.total, countCap)}
            </Text>
          )}
        </Group>
        {actions && <Group gap="xs">{actions}</Group>}
      </Group>
      {filters && filters.length > 0 && <FilterFields fields={filters} params={params} narrow={narrow} />}
      {above}
      <DataList
        rows={refusedMessage ? undefined : list.data?.data}
        columns={columns}
        rowKey={rowKey}
        narrow={narrow}
        loading={!refusedMessage && list.isPending}
        error={refusedMessage ?? (list.isError ? errorMessage(list.error) : null)}
        stale={list.isPlaceholderData}
        empty={empty}
        rowStyle={rowStyle}
        testId={testId}
        itemTestId={itemTestId}
        minWidth={minWidth}
        fixed={fixed}
        sort={params.values.sort}
        onSort={(value) => params.set('sort', value)}
        defaultSort={defaultSort}
      />
      <ListPagination meta={refusedMessage ? undefined : list.data?.meta} onPage={params.setPage} onPerPage={pageSizes ? params.setPerPage : undefined} />
      {children}
    </Stack>
  );
}
