import { useState } from 'react';
import { Anchor, Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconEyeOff, IconPlus, IconWorldOff, IconWorldUpload } from '@tabler/icons-react';
import { releaseActions, ReleaseMessages, type Release } from '@edu/domain/releases/release';
import { DataList, type ListColumn } from '../../../components/data-list';
import { ConfirmAction, EditAction } from '../../../components/row-actions';
import { errorMessage } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useNarrow } from '../../../lib/use-narrow';
import { useReleaseAction, useReleases } from '../api/releases';
import { ReleaseModal } from '../components/release-modal';

function Link({ href, label }: { href: string | null; label: string }) {
  if (!href) return null;
  return (
    <Anchor href={href} target="_blank" rel="noreferrer" size="xs">
      {label}
    </Anchor>
  );
}

/** /manager/publication-releases: 'Выпуски журнала' (spec 03 §2, §4). */
export function ReleasesPage() {
  useDocumentTitle(ReleaseMessages.title);
  const narrow = useNarrow();
  const releases = useReleases();
  const act = useReleaseAction();
  const [editing, setEditing] = useState<Release | null | undefined>(undefined);
  const run = (r: Release, action: 'hide' | 'publish' | 'unpublish' | 'delete') => () => act.mutateAsync({ id: r.id, action });

  const columns: Array<ListColumn<Release>> = [
    {
      key: 'subtype',
      label: 'Категория',
      width: 280,
      render: (r) => (
        <Text size="sm" c="dimmed">
          {r.subtype?.fdv ?? '—'}
        </Text>
      ),
    },
    {
      key: 'title',
      label: 'Название',
      card: 'title',
      render: (r) => (
        <Stack gap={2}>
          <Group gap={6} wrap="wrap">
            <Text size="sm" fw={500}>
              {r.title}
            </Text>
            {r.is_hidden && (
              <Badge size="xs" color="gray" variant="outline">
                Скрыт
              </Badge>
            )}
            {r.is_published && (
              <Badge size="xs" color="green" variant="light">
                Опубликован
              </Badge>
            )}
          </Group>
          <Group gap="sm">
            <Link href={r.url} label="Сборник" />
            <Link href={r.url_contents} label="Содержание" />
            {r.publications_count > 0 && (
              <Text size="xs" c="dimmed">
                Публикаций: {r.publications_count}
              </Text>
            )}
          </Group>
        </Stack>
      ),
    },
    {
      key: 'actions',
      label: 'Действия',
      card: 'footer',
      align: 'right',
      width: 200,
      render: (r) => {
        const can = releaseActions(r);
        return (
          <Group gap={4} justify="flex-end" wrap="nowrap" data-testid="release-actions">
            <EditAction label={r.title} onClick={() => setEditing(r)} />
            {can.canHide && (
              <ConfirmAction
                label={r.title}
                tooltip="Скрыть"
                title="Скрыть выпуск"
                question="Скрыть выпуск? Он пропадёт из списка выбора в форме публикации."
                color="gray"
                icon={<IconEyeOff size={18} />}
                onConfirm={run(r, 'hide')}
              />
            )}
            {r.is_hidden && (
              <ConfirmAction
                label={r.title}
                tooltip="Опубликовать"
                title="Опубликовать выпуск"
                question="Опубликовать выпуск?"
                color="green"
                icon={<IconWorldUpload size={18} />}
                disabled={!can.canPublish}
                onConfirm={run(r, 'publish')}
              />
            )}
            {r.is_hidden && (
              <ConfirmAction
                label={r.title}
                tooltip="Снять с публикации"
                title="Снять с публикации"
                question="Снять выпуск с публикации?"
                color="orange"
                icon={<IconWorldOff size={18} />}
                disabled={!can.canUnpublish}
                onConfirm={run(r, 'unpublish')}
              />
            )}
            <ConfirmAction label={r.title} onConfirm={run(r, 'delete')} />
          </Group>
        );
      },
    },
  ];

  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={2}>{ReleaseMessages.title}</Title>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing(null)}>
          Добавить
        </Button>
      </Group>
      <DataList
        rows={releases.data}
        columns={columns}
        rowKey={(r) => r.id}
        narrow={narrow}
        loading={releases.isPending}
        skeletonRows={20}
        error={releases.isError ? errorMessage(releases.error) : null}
        testId="releases"
        itemTestId="release"
      />
      <ReleaseModal release={editing} onClose={() => setEditing(undefined)} />
    </Stack>
  );
}
