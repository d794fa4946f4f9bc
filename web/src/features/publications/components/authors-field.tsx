import { useState } from 'react';
import { ActionIcon, Button, Group, Select, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { IconTrash, IconUserPlus } from '@tabler/icons-react';
import { errorMessage } from '../../../lib/api-client';
import { notifyError } from '../../../lib/notify';
import { searchAuthors, type AuthorOption } from '../api/search-authors';
import { PublicationMessages } from '../api/types';

interface AuthorsFieldProps {
  authors: Array<{ user_id: number | null; fio: string }>;
  /** Adds a picked user (the form keeps it, or the operator's modal saves it at once). */
  onAdd: (author: AuthorOption) => void;
  /** Removes an author by position (only co-authors of a form not yet sent). */
  onRemove?: (index: number) => void;
  /** At most this many authors in all (authors_num of the largest price). */
  max?: number;
  disabled?: boolean;
  error?: string;
}

/**
 * Authors: the list and a search by full name (page 1). The search fires only for non-empty text;
 * adding needs a user picked from the dropdown (spec 03 §5).
 */
export function AuthorsField({ authors, onAdd, onRemove, max, disabled, error }: AuthorsFieldProps) {
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<string | null>(null);
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const [local, setLocal] = useState<string | null>(null);
  const found = useQuery({
    queryKey: ['publication-authors', debounced],
    queryFn: () => searchAuthors(debounced),
    enabled: debounced.length > 0,
    retry: false,
  });
  if (found.isError && local !== errorMessage(found.error)) {
    setLocal(errorMessage(found.error));
    notifyError(errorMessage(found.error));
  }
  const options = (found.data ?? []).filter((u) => !authors.some((a) => a.user_id === u.id));
  const full = max !== undefined && authors.length >= max;

  function add() {
    if (!search.trim()) {
      notifyError(PublicationMessages.enterFioFirst);
      return;
    }
    const user = options.find((u) => String(u.id) === picked);
    if (!picked || !Number.isInteger(Number(picked)) || !user) {
      notifyError(PublicationMessages.chooseAuthor);
      return;
    }
    onAdd(user);
    setPicked(null);
    setSearch('');
  }

  return (
    <Stack gap={6} data-field>
      <Text size="sm" fw={500}>
        Авторы
      </Text>
      {authors.map((a, i) => (
        <Group key={`${a.user_id ?? 'x'}-${i}`} gap="xs" wrap="nowrap" data-testid="publication-author">
          <Text size="sm">
            {i + 1}. {a.fio}
          </Text>
          {onRemove && i > 0 && !disabled && (
            <ActionIcon variant="subtle" color="red" size="sm" aria-label={`Убрать автора ${a.fio}`} onClick={() => onRemove(i)}>
              <IconTrash size={14} />
            </ActionIcon>
          )}
        </Group>
      ))}
      {!disabled && !full && (
        <Group gap="xs" align="flex-end" wrap="nowrap">
          <Select
            style={{ flex: 1 }}
            label="Добавить автора"
            placeholder="Начните вводить ФИО"
            searchable
            clearable
            searchValue={search}
            onSearchChange={setSearch}
            value={picked}
            onChange={setPicked}
            data={options.map((u) => ({ value: String(u.id), label: u.fio }))}
            nothingFoundMessage={debounced ? (found.isFetching ? 'Поиск…' : 'Ничего не найдено') : undefined}
            filter={({ options: o }) => o}
          />
          <Button variant="light" leftSection={<IconUserPlus size={16} />} onClick={add}>
            Добавить
          </Button>
        </Group>
      )}
      {error && (
        <Text size="xs" c="red" data-field-error>
          {error}
        </Text>
      )}
    </Stack>
  );
}
