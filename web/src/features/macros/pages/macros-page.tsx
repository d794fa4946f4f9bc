import { useState } from 'react';
import { Badge, Button, Group, Paper, SimpleGrid, Skeleton, Stack, Tabs, Text, TextInput, Title } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { MACRO_SEARCH, MacroButton } from '../../../components/macro-panel';
import { errorMessage } from '../../../lib/api-client';
import { fieldErrorsOf } from '../../../lib/field-errors';
import { matchesMacro, useMacros } from '../../../lib/macros';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { NameForms } from '../components/name-forms';
import { SiteLinksForm } from '../components/site-links-form';
import { useListParams } from '../../../components/use-list-params';
import { useRequisites, useSaveRequisites, type Requisites } from '../api/requisites';
import { focusFirstInvalid } from '../../../lib/focus-invalid';

/** /manager/macroses 'Макросы' (spec 02 §2): the catalogue by category with search; a click copies a macro. */
export function MacrosPage() {
  useDocumentTitle('Макросы');
  // ?tab=requisites opens the centre's settings (the dashboard's to-do and the top bar link here).
  const params = useListParams();
  const [tab, setTabNow] = useState<string | null>(() => (['requisites', 'names'].includes(params.values.tab ?? '') ? params.values.tab! : 'catalogue'));
  const setTab = (value: string | null) => {
    setTabNow(value);
    params.set('tab', value === 'catalogue' || value === null ? '' : value);
  };
  return (
    <Stack gap="lg">
      <Title order={2}>Макросы</Title>
      <Tabs value={tab} onChange={setTab} keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="catalogue">Каталог</Tabs.Tab>
          <Tabs.Tab value="requisites">Реквизиты центра</Tabs.Tab>
          <Tabs.Tab value="names">Склонение ФИО</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="catalogue" pt="md">
          <Catalogue />
        </Tabs.Panel>
        <Tabs.Panel value="requisites" pt="md">
          <Stack gap="lg">
            <RequisitesForm />
            <SiteLinksForm />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="names" pt="md">
          <NameForms />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

function Catalogue() {
  const { data, isLoading, error } = useMacros();
  const [search, setSearch] = useState('');
  return (
    <Stack gap="md">
      <TextInput
        placeholder={MACRO_SEARCH}
        aria-label={MACRO_SEARCH}
        leftSection={<IconSearch size={16} />}
        value={search}
        onChange={(e) => setSearch(e.currentTarget.value)}
        maw={480}
      />
      {error && <Text c="red.7">{errorMessage(error)}</Text>}
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="md">
        {isLoading
          ? Array.from({ length: 6 }, (_, i) => <Skeleton key={i} h={220} radius="md" />)
          : (data ?? []).map((c) => {
              const macros = c.macros.filter((m) => matchesMacro(m, search));
              return (
                <Paper key={c.id} p="md" radius="md" withBorder data-testid="macro-category">
                  <Group justify="space-between" mb="xs">
                    <Text fw={600}>{c.fdv}</Text>
                    <Badge variant="light">{macros.length}</Badge>
                  </Group>
                  {macros.length === 0 ? (
                    <Text size="sm" c="dimmed">
                      Ничего не найдено
                    </Text>
                  ) : (
                    <Stack gap={2}>
                      {macros.map((m) => (
                        <MacroButton key={m.id} macro={m} />
                      ))}
                    </Stack>
                  )}
                </Paper>
              );
            })}
      </SimpleGrid>
    </Stack>
  );
}

/** The requisites printed by ${org.*} macros in contracts and certificates. */
function RequisitesForm() {
  const { data, isLoading } = useRequisites();
  if (isLoading || !data) return <Skeleton h={400} radius="md" />;
  return <RequisitesFields initial={data.data} fields={data.fields} />;
}

function RequisitesFields({ initial, fields }: { initial: Requisites; fields: { key: string; label: string }[] }) {
  const save = useSaveRequisites();
  const [values, setValues] = useState<Requisites>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});
  return (
    <Paper p="lg" radius="md" withBorder maw={900}>
      <Text size="sm" c="dimmed" mb="md">
        Реквизиты подставляются в документы макросами {'${org.…}'}. Незаполненное поле печатается пустой строкой «______» для заполнения от руки.
      </Text>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          save.mutate(values, {
            onSuccess: (r) => {
              setErrors({});
              notifySuccess(r.message);
            },
            onError: (err) => {
              setErrors(fieldErrorsOf(err));
              focusFirstInvalid();
              notifyError(errorMessage(err));
            },
          });
        }}
      >
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {fields.map((f) => (
            <TextInput
              key={f.key}
              label={f.label}
              description={`\${org.${f.key}}`}
              value={values[f.key] ?? ''}
              error={errors[f.key]}
              onChange={(e) => {
                const v = e.currentTarget.value;
                setValues((old) => ({ ...old, [f.key]: v }));
              }}
            />
          ))}
        </SimpleGrid>
        <Group justify="flex-end" mt="lg">
          <Button type="submit" loading={save.isPending}>
            Сохранить
          </Button>
        </Group>
      </form>
    </Paper>
  );
}
