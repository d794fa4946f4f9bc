import type { CSSProperties, Key, ReactNode } from 'react';
import { Group, Paper, Select, Stack, Table, Text, UnstyledButton, type TableThProps } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconArrowsSort } from '@tabler/icons-react';
import { EmptyList, ListError, ListSkeleton } from './list-states';

/**
 * One column of an operator list, described once for both layouts: the table header and cell
 * above 1199 px, and a place on the card at or below.
 */
export interface ListColumn<T> {
  key: string;
  /** Header of the table; the label of the card row. */
  label: string;
  render: (row: T) => ReactNode;
  /**
   * Where the value goes on a card: 'title' (top left, several stack), 'aside' (top right),
   * 'body' (a 'label: value' row, the default), 'footer' (actions, bottom), 'hidden'.
   */
  card?: 'title' | 'aside' | 'body' | 'footer' | 'hidden';
  /** Table column width (with `fixed`, what the column gets; a column without one shares the rest). */
  width?: TableThProps['w'];
  /** Table cell width limit (automatic layout only). */
  maxWidth?: number | string;
  nowrap?: boolean;
  align?: 'left' | 'center' | 'right';
  /** Hide from the table only (shown on cards). */
  tableHidden?: boolean;
  /** The server's sort name for this column: its header then sorts (asc, desc, back to the default). */
  sort?: string;
}

export interface DataListProps<T> {
  rows: T[] | undefined;
  columns: Array<ListColumn<T>>;
  rowKey: (row: T) => Key;
  narrow: boolean;
  loading?: boolean;
  /** The error of the first load (a list already shown stays on screen when a refetch fails). */
  error?: string | null;
  /** Old rows shown while the next page loads: dimmed. */
  stale?: boolean;
  empty?: ReactNode;
  /** Per-row style, e.g. deleted rows faded. */
  rowStyle?: (row: T) => CSSProperties | undefined;
  /** data-testids: `<testId>-table`, `<testId>-cards`, and `<itemTestId>-row`, `<itemTestId>-card` (default testId). */
  testId: string;
  itemTestId?: string;
  /** Minimum table width before it scrolls sideways. */
  minWidth?: number;
  compact?: boolean;
  /**
   * A fixed table layout: columns get their `width`, the others share the rest, and a long value
   * stays in its column (cut with an ellipsis where its cell says so) instead of widening the row.
   */
  fixed?: boolean;
  skeletonRows?: number;
  /** The current `?sort=` (`name` or `-name`) and how to change it; headers of columns with `sort` use them. */
  sort?: string;
  onSort?: (sort: string) => void;
  /** The server's order without `?sort=` (e.g. '-created_at'): its header shows the arrow then. */
  defaultSort?: string;
}

/** The sort a list is in: the address bar's, else the server's default. */
const sortInForce = (sort: string | undefined, defaultSort: string | undefined) => sort || defaultSort || '';

/** aria-sort of a column's header: only the sorted column says its direction. */
export function ariaSort(name: string | undefined, sort: string | undefined, defaultSort?: string): 'ascending' | 'descending' | undefined {
  if (!name) return undefined;
  const current = sortInForce(sort, defaultSort);
  return current === name ? 'ascending' : current === `-${name}` ? 'descending' : undefined;
}

/**
 * A sortable column's header: a button with the label and an arrow (up ascending, down descending,
 * both dimmed when not sorted by it). A click sorts ascending, the next descending, the next returns
 * to the list's default order (written as no `?sort=` at all).
 */
export function SortHeader({
  label,
  name,
  sort,
  defaultSort,
  onSort,
}: {
  label: string;
  name: string;
  sort?: string;
  defaultSort?: string;
  onSort: (sort: string) => void;
}) {
  const current = sortInForce(sort, defaultSort);
  const asc = current === name;
  const desc = current === `-${name}`;
  // The default order's column flips between its two directions; another column goes ascending,
  // descending, then back to the default order.
  const isDefault = defaultSort === name || defaultSort === `-${name}`;
  const next = asc ? `-${name}` : desc && !isDefault ? '' : name;
  const Icon = asc ? IconArrowUp : desc ? IconArrowDown : IconArrowsSort;
  return (
    <UnstyledButton
      onClick={() => onSort(next === defaultSort ? '' : next)}
      title={asc ? 'По возрастанию' : desc ? 'По убыванию' : 'Сортировать'}
      style={{ fontWeight: 700, fontSize: 'inherit', color: 'inherit' }}
      data-testid={`sort-${name}`}
    >
      <Group gap={4} wrap="nowrap">
        {label}
        <Icon size={14} stroke={1.8} style={{ opacity: asc || desc ? 1 : 0.35, flexShrink: 0 }} aria-hidden />
      </Group>
    </UnstyledButton>
  );
}

const DEFAULT_ORDER = 'default';

/** Narrow screens have no headers: the sort is a choice above the cards (each sortable column, both ways). */
export function SortSelect({
  options,
  sort,
  defaultSort,
  onSort,
}: {
  options: Array<{ name: string; label: string }>;
  sort?: string;
  defaultSort?: string;
  onSort: (sort: string) => void;
}) {
  const data = options.flatMap((o) => [
    { value: o.name, label: `${o.label} ↑` },
    { value: `-${o.name}`, label: `${o.label} ↓` },
  ]);
  // The list's own order may be by no column offered here (users by id, say): it is then a choice of
  // its own, «По умолчанию», so the select is never blank and the way back is always offered.
  if (!data.some((d) => d.value === defaultSort)) data.unshift({ value: DEFAULT_ORDER, label: 'По умолчанию' });
  const current = sortInForce(sort, defaultSort);
  const listed = data.some((d) => d.value === current);
  return (
    <Select
      label="Сортировка"
      size="xs"
      w={220}
      data={data}
      value={listed ? current : DEFAULT_ORDER}
      allowDeselect={false}
      onChange={(value) => value && onSort(value === defaultSort || value === DEFAULT_ORDER ? '' : value)}
      data-testid="sort-select"
      comboboxProps={{ withinPortal: true }}
    />
  );
}

function Cell({ children }: { children: ReactNode }) {
  return typeof children === 'string' || typeof children === 'number' ? <Text size="sm">{children}</Text> : <>{children}</>;
}

function ListCard<T>({ row, columns, style, testId }: { row: T; columns: Array<ListColumn<T>>; style?: CSSProperties; testId: string }) {
  const place = (c: ListColumn<T>) => c.card ?? 'body';
  const titles = columns.filter((c) => place(c) === 'title');
  const asides = columns.filter((c) => place(c) === 'aside');
  const body = columns.filter((c) => place(c) === 'body');
  const footer = columns.filter((c) => place(c) === 'footer');
  return (
    <Paper p="md" radius="md" style={style} data-testid={`${testId}-card`}>
      <Stack gap={8}>
        {(titles.length > 0 || asides.length > 0) && (
          <Group justify="space-between" wrap="nowrap" align="flex-start" gap="sm">
            <Stack gap={2} style={{ minWidth: 0 }}>
              {titles.map((c) => (
                <Cell key={c.key}>{c.render(row)}</Cell>
              ))}
            </Stack>
            {asides.length > 0 && (
              <Stack gap={2} align="flex-end" style={{ flexShrink: 0 }}>
                {asides.map((c) => (
                  <Cell key={c.key}>{c.render(row)}</Cell>
                ))}
              </Stack>
            )}
          </Group>
        )}
        {body.map((c) => (
          <Group key={c.key} gap={6} wrap="nowrap" align="baseline">
            <Text size="sm" c="dimmed" style={{ flexShrink: 0 }}>
              {c.label}:
            </Text>
            <div style={{ minWidth: 0 }}>
              <Cell>{c.render(row)}</Cell>
            </div>
          </Group>
        ))}
        {footer.length > 0 && (
          <Group gap="xs" justify="flex-end">
            {footer.map((c) => (
              <Cell key={c.key}>{c.render(row)}</Cell>
            ))}
          </Group>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * The body of an operator list: skeleton while loading, the error, 'Ничего не найдено', or the rows
 * as a table above 1199 px and as cards at or below (spec 01 §9).
 */
export function DataList<T>({
  rows,
  columns,
  rowKey,
  narrow,
  loading,
  error,
  stale,
  empty,
  rowStyle,
  testId,
  itemTestId = testId,
  minWidth = 720,
  compact,
  fixed,
  skeletonRows,
  sort,
  onSort,
  defaultSort,
}: DataListProps<T>) {
  if (loading) return <ListSkeleton narrow={narrow} rows={skeletonRows} />;
  if (error && !rows) return <ListError message={error} />;
  if (!rows || rows.length === 0) return <>{empty ?? <EmptyList />}</>;
  const dim = { opacity: stale ? 0.6 : 1, transition: 'opacity 120ms' };

  if (narrow) {
    const sortable = columns.filter((c) => c.sort).map((c) => ({ name: c.sort as string, label: c.label }));
    return (
      <Stack gap="sm" style={dim} data-testid={`${testId}-cards`}>
        {onSort && sortable.length > 0 && <SortSelect options={sortable} sort={sort} defaultSort={defaultSort} onSort={onSort} />}
        {rows.map((row) => (
          <ListCard key={rowKey(row)} row={row} columns={columns} style={rowStyle?.(row)} testId={itemTestId} />
        ))}
      </Stack>
    );
  }

  const shown = columns.filter((c) => !c.tableHidden);
  return (
    <Paper p={compact ? 0 : 'xs'} radius="md" withBorder style={dim}>
      <Table.ScrollContainer minWidth={minWidth}>
        <Table verticalSpacing={compact ? 'xs' : 'sm'} highlightOnHover layout={fixed ? 'fixed' : undefined} data-testid={`${testId}-table`}>
          <Table.Thead style={{ whiteSpace: 'nowrap' }}>
            <Table.Tr>
              {shown.map((c) => (
                <Table.Th key={c.key} w={c.width} ta={c.align} aria-sort={onSort ? ariaSort(c.sort, sort, defaultSort) : undefined}>
                  {c.sort && onSort ? <SortHeader label={c.label} name={c.sort} sort={sort} defaultSort={defaultSort} onSort={onSort} /> : c.label}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((row) => (
              <Table.Tr key={rowKey(row)} style={rowStyle?.(row)} data-testid={`${itemTestId}-row`}>
                {shown.map((c) => (
                  <Table.Td
                    key={c.key}
                    maw={c.maxWidth}
                    ta={c.align}
                    style={c.nowrap ? { whiteSpace: 'nowrap' } : c.maxWidth ? { overflowWrap: 'anywhere' } : undefined}
                  >
                    <Cell>{c.render(row)}</Cell>
                  </Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
