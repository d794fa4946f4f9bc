import { useState } from 'react';
import { ActionIcon, Button, Group, Paper, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { MAX_SHORTCUTS, shortcutSchema, siteLinksBody, type SiteLinks } from '@edu/domain/settings/site-links';
import { errorMessage } from '../../../lib/api-client';
import { fieldErrorsOf } from '../../../lib/field-errors';
import { focusFirstInvalid } from '../../../lib/focus-invalid';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useSiteLinks } from '../../../lib/site-links';
import { useSaveSiteLinks } from '../api/site-links';

interface Row {
  label: string;
  href: string;
}

/** The links of the top bar ('Полезные ссылки') and the footer ('Реквизиты'), set by operators. */
export function SiteLinksForm() {
  const links = useSiteLinks();
  if (!links) return <Skeleton h={260} radius="md" />;
  return <SiteLinksFields initial={links} />;
}

function SiteLinksFields({ initial }: { initial: SiteLinks }) {
  const save = useSaveSiteLinks();
  const [requisitesUrl, setRequisitesUrl] = useState(initial.requisites_url ?? '');
  const [rows, setRows] = useState<Row[]>(initial.shortcuts);
  const [urlError, setUrlError] = useState<string | undefined>();
  const [rowErrors, setRowErrors] = useState<Array<Partial<Record<keyof Row, string>>>>([]);

  /** The form checks each row with the server's own rules first, so an error stands under its row. */
  function problems(): boolean {
    const url = siteLinksBody.shape.requisites_url.safeParse(requisitesUrl.trim());
    setUrlError(url.success ? undefined : url.error.issues[0]?.message);
    const perRow = rows.map((r) => {
      const parsed = shortcutSchema.safeParse(r);
      const out: Partial<Record<keyof Row, string>> = {};
      if (!parsed.success) for (const issue of parsed.error.issues) out[issue.path[0] as keyof Row] ??= issue.message;
      return out;
    });
    setRowErrors(perRow);
    return !url.success || perRow.some((e) => e.label || e.href);
  }

  const setRow = (i: number, patch: Partial<Row>) => setRows((old) => old.map((r, j) => (j === i ? { ...r, ...patch } : r)));

  return (
    <Paper p="lg" radius="md" withBorder maw={900} data-testid="site-links-form">
      <Title order={3} size="h5" mb={4}>
        Ссылки в шапке и подвале
      </Title>
      <Text size="sm" c="dimmed" mb="md">
        «Полезные ссылки» открываются значком в шапке кабинета, «Реквизиты» — ссылкой внизу страницы. Пока ссылки не заданы, их не видно.
      </Text>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (problems()) {
            focusFirstInvalid();
            return;
          }
          save.mutate(
            { requisites_url: requisitesUrl.trim(), shortcuts: rows.map((r) => ({ label: r.label.trim(), href: r.href.trim() })) },
            {
              onSuccess: (r) => notifySuccess(r.message),
              onError: (err) => {
                setUrlError(fieldErrorsOf(err).requisites_url);
                notifyError(errorMessage(err));
              },
            },
          );
        }}
      >
        <Stack gap="sm">
          <TextInput
            label="Страница с реквизитами"
            description="Ссылка «Реквизиты» внизу страницы; оставьте пустым, чтобы её не показывать"
            placeholder="https://…"
            value={requisitesUrl}
            error={urlError}
            onChange={(e) => setRequisitesUrl(e.currentTarget.value)}
          />
          <Text size="sm" fw={500} mt="xs">
            Полезные ссылки
          </Text>
          {rows.length === 0 && (
            <Text size="sm" c="dimmed" data-testid="site-links-empty">
              Ссылок пока нет.
            </Text>
          )}
          {rows.map((r, i) => (
            <Group key={i} gap="xs" align="flex-start" wrap="wrap" data-testid="shortcut-row">
              <TextInput
                aria-label={`Название ссылки ${i + 1}`}
                placeholder="Название"
                value={r.label}
                error={rowErrors[i]?.label}
                onChange={(e) => setRow(i, { label: e.currentTarget.value })}
                style={{ flex: '1 1 160px' }}
              />
              <TextInput
                aria-label={`Адрес ссылки ${i + 1}`}
                placeholder="https://…"
                value={r.href}
                error={rowErrors[i]?.href}
                onChange={(e) => setRow(i, { href: e.currentTarget.value })}
                style={{ flex: '2 1 220px' }}
              />
              <ActionIcon
                variant="subtle"
                color="red"
                size="lg"
                aria-label={`Удалить ссылку ${i + 1}`}
                onClick={() => {
                  setRows((old) => old.filter((_, j) => j !== i));
                  setRowErrors((old) => old.filter((_, j) => j !== i));
                }}
              >
                <IconTrash size={16} />
              </ActionIcon>
            </Group>
          ))}
          <Group justify="space-between" mt="xs">
            <Button
              variant="light"
              leftSection={<IconPlus size={16} />}
              disabled={rows.length >= MAX_SHORTCUTS}
              onClick={() => setRows((old) => [...old, { label: '', href: '' }])}
            >
              Добавить ссылку
            </Button>
            <Button type="submit" loading={save.isPending}>
              Сохранить ссылки
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
