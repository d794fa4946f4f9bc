import { useState } from 'react';
import { Select } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery } from '@tanstack/react-query';
import { searchAuthors, type AuthorOption } from '../api/search-authors';

/** Operators submit for a client: the client (the first author and the entry's owner), searched by full name. */
export function ClientPicker({ value, onChange }: { value: AuthorOption | null; onChange: (client: AuthorOption) => void }) {
  const [search, setSearch] = useState(value?.fio ?? '');
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const found = useQuery({
    queryKey: ['publication-authors', debounced],
    queryFn: () => searchAuthors(debounced),
    enabled: debounced.length > 1,
    retry: false,
  });
  const options = [...(found.data ?? [])];
  if (value && !options.some((o) => o.id === value.id)) options.unshift(value);
  return (
    <Select
      label="Клиент"
      description="Для кого публикация: первый автор и владелец заявки"
      placeholder="Начните вводить ФИО"
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      value={value ? String(value.id) : null}
      onChange={(id) => {
        const client = options.find((o) => String(o.id) === id);
        if (client) onChange(client);
      }}
      data={options.map((o) => ({ value: String(o.id), label: o.fio }))}
      filter={({ options: o }) => o}
      nothingFoundMessage={debounced.length > 1 ? 'Ничего не найдено' : undefined}
      allowDeselect={false}
    />
  );
}
