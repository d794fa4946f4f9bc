import { useState } from 'react';
import { Badge, Button, Card, Group, Paper, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';
import { errorMessage } from '../../../lib/api-client';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useNameForms, useSaveNameForm, type NameForm } from '../api/name-forms';

/** 'Склонение ФИО': the dative form certificates print (${user.fio_dative}), corrected where the library is wrong. */
export function NameForms() {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 350);
  const found = useNameForms(debounced);
  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed" maw={760}>
        Сертификаты печатают ФИО в дательном падеже (макрос {'${user.fio_dative}'}). Склонение вычисляется автоматически; если оно неверно, впишите правильную
        форму — она будет использоваться во всех документах клиента.
      </Text>
      <TextInput
        placeholder="Поиск по ФИО"
        aria-label="Поиск по ФИО"
        leftSection={<IconSearch size={16} />}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        maw={480}
      />
      {debounced.trim().length < 2 ? null : found.isLoading ? (
        <Skeleton h={120} radius="md" />
      ) : (found.data ?? []).length === 0 ? (
        <Paper p="xl" radius="md" withBorder>
          <Text c="dimmed" ta="center">
            Ничего не найдено
          </Text>
        </Paper>
      ) : (
        <Stack gap="sm">
          {(found.data ?? []).map((u) => (
            <NameFormRow key={`${u.id}-${u.fio_dative ?? ''}`} user={u} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

function NameFormRow({ user }: { user: NameForm }) {
  const [value, setValue] = useState(user.fio_dative ?? user.computed);
  const save = useSaveNameForm();
  const submit = (fio_dative: string) =>
    save.mutate({ id: user.id, fio_dative }, { onSuccess: (r) => notifySuccess(r.message), onError: (err) => notifyError(errorMessage(err)) });
  return (
    <Card withBorder radius="md" padding="md" data-testid="name-form">
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap={4} style={{ flex: 1, minWidth: 240 }}>
          <Group gap="xs">
            <Text fw={600}>{user.fio}</Text>
            <Text size="xs" c="dimmed">
              {user.email}
            </Text>
            {user.fio_dative && (
              <Badge size="xs" variant="light" color="grape">
                исправлено
              </Badge>
            )}
          </Group>
          <TextInput label="Кому (дательный падеж)" value={value} onChange={(e) => setValue(e.currentTarget.value)} maxLength={500} />
          {user.fio_dative && (
            <Text size="xs" c="dimmed">
              Автоматически: {user.computed}
            </Text>
          )}
        </Stack>
        <Group gap="xs">
          {user.fio_dative && (
            <Button variant="default" onClick={() => submit('')} loading={save.isPending}>
              Вернуть автоматическое
            </Button>
          )}
          <Button onClick={() => submit(value === user.computed ? '' : value)} loading={save.isPending}>
            Сохранить
          </Button>
        </Group>
      </Group>
    </Card>
  );
}
