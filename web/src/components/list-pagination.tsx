import { Group, Pagination, Select, Text } from '@mantine/core';
import { PAGE_SIZES } from '@edu/domain/common/codes';
import type { PageMeta } from '@edu/domain/common/pagination';

interface ListPaginationProps {
  meta: PageMeta | undefined;
  onPage: (page: number) => void;
  /** When given, a page size select (15, 30, 100) is shown. */
  onPerPage?: (perPage: number) => void;
}

/** Page links only when there is more than one page; 5 page links (spec 01 §9). */
export function ListPagination({ meta, onPage, onPerPage }: ListPaginationProps) {
  if (!meta) return null;
  const many = meta.last_page > 1;
  if (!many && !onPerPage) return null;
  if (!many && meta.total <= PAGE_SIZES[0]) return null;
  return (
    <Group justify="space-between" gap="sm" mt="md">
      {many ? (
        <Pagination total={meta.last_page} value={meta.current_page} onChange={onPage} siblings={1} boundaries={1} size="sm" aria-label="Страницы" />
      ) : (
        <span />
      )}
      {onPerPage && (
        <Group gap={8} wrap="nowrap">
          <Text size="sm" c="dimmed">
            На странице
          </Text>
          <Select
            aria-label="Записей на странице"
            data={PAGE_SIZES.map((n) => ({ value: String(n), label: String(n) }))}
            value={String(meta.per_page)}
            onChange={(value) => value && onPerPage(Number(value))}
            allowDeselect={false}
            w={84}
            size="xs"
          />
        </Group>
      )}
    </Group>
  );
}
