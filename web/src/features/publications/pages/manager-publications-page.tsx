import { useState } from 'react';
import { Anchor, Button, Checkbox, Group, Paper, Select, Stack, Text, Tooltip } from '@mantine/core';
import { IconWorldUpload } from '@tabler/icons-react';
import { publicationStatusLabels } from '@edu/domain/common/codes';
import { ConfirmModal } from '../../../components/confirm-modal';
import type { ListColumn } from '../../../components/data-list';
import type { FilterField } from '../../../components/filter-fields';
import { ListPage } from '../../../components/list-page';
import { useListParams } from '../../../components/use-list-params';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { siteNotConnected, useSiteLookup } from '../../../lib/site-lookups';
import { cutText } from '../../../lib/text';
import { usePublicationServices } from '../api/get-publication-services';
import { usePublications } from '../api/get-publications';
import { useReleases } from '../api/get-releases';
import { addToRelease, publishAccepted, useInvalidatePublications } from '../api/manage-publication';
import { PublicationMessages, UNIQUENESS_THRESHOLD, type Publication } from '../api/types';
import { PublicationViewModal } from '../components/publication-view-modal';
import { PublicationPaymentBadge } from '../components/payment-badge';
import { PublicationStatusBadge } from '../components/status-badge';
import { UniquenessStateBadge } from '../components/uniqueness-block';

const statusOptions = Object.entries(publicationStatusLabels).map(([value, label]) => ({ value, label }));

/**
 * /manager/publication 'Публикации' (spec 03 §2): every publication with a checkbox per row, all
 * filters in the URL, 'Опубликовать одобренные' and the bottom panel 'Добавление в сборник'.
 */
export function ManagerPublicationsPage() {
  const params = useListParams();
  const list = usePublications(params.query);
  const services = usePublicationServices();
  const releases = useReleases(null);
  const invalidate = useInvalidatePublications();
  const [open, setOpen] = useState<Publication | null>(null);
  const [checked, setChecked] = useState<Set<number>>(new Set());
  const [confirming, setConfirming] = useState(false);
  // «Опубликовать одобренные» needs the journal's site; without one it is disabled and says why.
  const journalOff = siteNotConnected(useSiteLookup('categories', 'journal'));
  const [publishing, setPublishing] = useState(false);
  const [release, setRelease] = useState<string | null>(null);
  const [adding, setAdding] = useState(false);
  // Unpaid approved ones are skipped unless the operator ticks them in (issue 28).
  const [includeUnpaid, setIncludeUnpaid] = useState(false);
  // The server's question when unpaid ones are among the checked publications for a release.
  const [releaseAsk, setReleaseAsk] = useState<string | null>(null);

  const rows = list.data?.data ?? [];
  const allChecked = rows.length > 0 && rows.every((r) => checked.has(r.id));
  const toggle = (id: number) =>
    setChecked((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  async function publish() {
    setPublishing(true);
    try {
      // The answer's message says how many unpaid ones were skipped.
      const answer = await publishAccepted(includeUnpaid);
      notifySuccess(answer.message);
      setConfirming(false);
      setIncludeUnpaid(false);
    } catch (error) {
      notifyError(errorMessage(error));
    } finally {
      setPublishing(false);
      invalidate();
    }
  }

  /** Puts the checked ones into the release; unpaid ones among them only after the operator confirms (the server asks). */
  async function toRelease(confirmUnpaid = false) {
    if (!release) return;
    setAdding(true);
    try {
      await addToRelease([...checked], Number(release), confirmUnpaid);
      notifySuccess(PublicationMessages.selectedUpdated);
      setChecked(new Set());
      setRelease(null);
      setReleaseAsk(null);
    } catch (error) {
      if (!confirmUnpaid && error instanceof ApiError && error.fieldError('confirm_unpaid')) setReleaseAsk(error.message);
      else notifyError(errorMessage(error));
    } finally {
      setAdding(false);
      invalidate();
    }
  }

  const releaseOptions = (releases.data ?? []).map((r) => ({ value: String(r.id), label: r.title }));
  const filters: FilterField[] = [
    { name: 'title', label: 'Название', kind: 'text', placeholder: 'Название' },
    { name: 'entryNumber', label: 'Номер заявки', kind: 'text', placeholder: 'Номер', inputMode: 'numeric' },
    { name: 'fio', label: 'ФИО', kind: 'text', placeholder: 'Автор' },
    {
      name: 'serviceId',
      label: 'Услуга',
      kind: 'select',
      placeholder: 'Все',
      options: (services.data ?? []).map((s) => ({ value: String(s.id), label: s.title })),
      searchable: true,
    },
    { name: 'status', label: 'Статус', kind: 'select', placeholder: 'Все', options: statusOptions },
    { name: 'release_id', label: 'Выпуск', kind: 'select', placeholder: 'Все', options: releaseOptions, searchable: true },
    {
      name: 'isPaid',
      label: 'Оплата',
      kind: 'select',
      placeholder: 'Все',
      options: [
        { value: '1', label: PublicationMessages.paid },
        { value: '0', label: PublicationMessages.unpaid },
      ],
    },
    { name: 'isWithoutRelease', label: 'Без выпуска', kind: 'checkbox' },
  ];

  const columns: Array<ListColumn<Publication>> = [
    {
      key: 'check',
      label: '',
      card: 'aside',
      width: 36,
      render: (p) => <Checkbox aria-label={`Выбрать публикацию ${p.id}`} checked={checked.has(p.id)} onChange={() => toggle(p.id)} />,
    },
    {
      key: 'title',
      label: 'Публикация',
      card: 'title',
      sort: 'title',
      maxWidth: 260,
      render: (p) => (
        <div>
          <Anchor component="button" type="button" fw={600} size="sm" ta="left" onClick={() => setOpen(p)} title={p.title} data-testid="publication-open">
            {cutText(p.title, 34)}
          </Anchor>
          <Text size="xs" c="dimmed">
            {p.service?.title ?? '—'}
          </Text>
        </div>
      ),
    },
    {
      key: 'entry',
      label: 'Заявка',
      nowrap: true,
      render: (p) => (
        <div>
          <Text size="sm">{p.entries.length ? p.entries.map((e) => e.number).join(', ') : '—'}</Text>
          <Text size="xs" c="dimmed">
            {p.created_at_formatted}
          </Text>
        </div>
      ),
    },
    { key: 'authors', label: 'Авторы', maxWidth: 200, render: (p) => p.authors.map((a) => a.fio).join(', ') || '—' },
    { key: 'release', label: 'Выпуск', maxWidth: 180, render: (p) => p.release?.title ?? (p.is_journal ? 'Журнал' : '—') },
    {
      key: 'uniqueness',
      label: 'Уникальность',
      render: (p) =>
        p.uniqueness_state ? (
          <UniquenessStateBadge state={p.uniqueness_state} />
        ) : p.uniqueness === null || p.uniqueness === undefined ? (
          '—'
        ) : (
          <Text size="sm" fw={600} c={p.uniqueness > UNIQUENESS_THRESHOLD ? 'teal.7' : 'red.7'}>
            {p.uniqueness}%
          </Text>
        ),
    },
    { key: 'payment', label: 'Оплата', nowrap: true, render: (p) => <PublicationPaymentBadge paid={p.is_paid} /> },
    {
      key: 'status',
      label: 'Статус',
      card: 'aside',
      sort: 'status',
      render: (p) => <PublicationStatusBadge status={p.status} label={p.statusLabel} color={p.statusColor} />,
    },
  ];

  return (
    <ListPage
      title="Публикации"
      defaultSort="-created_at"
      actions={
        <Tooltip label={PublicationMessages.cmsOff} disabled={!journalOff} multiline w={260}>
          {/* A disabled button takes no pointer events: the wrapper carries the tooltip. */}
          <span data-testid="publish-approved-wrapper">
            <Button leftSection={<IconWorldUpload size={16} />} onClick={() => setConfirming(true)} disabled={journalOff}>
              Опубликовать одобренные
            </Button>
          </span>
        </Tooltip>
      }
      filters={filters}
      params={params}
      list={list}
      columns={columns}
      testId="publications"
      itemTestId="publication"
      minWidth={900}
      above={
        rows.length > 0 ? (
          <Checkbox
            label="Выбрать все на странице"
            checked={allChecked}
            indeterminate={!allChecked && rows.some((r) => checked.has(r.id))}
            onChange={() => setChecked(allChecked ? new Set() : new Set(rows.map((r) => r.id)))}
          />
        ) : null
      }
    >
      {checked.size > 0 && (
        <Paper withBorder shadow="md" p="sm" radius="md" style={{ position: 'sticky', bottom: 8, zIndex: 5 }} data-testid="release-panel">
          <Group gap="sm" align="flex-end" wrap="wrap">
            <Text fw={600}>Добавление в сборник</Text>
            <Text size="sm" c="dimmed">
              Выбрано: {checked.size}
            </Text>
            <Select
              placeholder="Выберите выпуск"
              data={releaseOptions}
              value={release}
              onChange={setRelease}
              searchable
              style={{ flex: 1, minWidth: 200 }}
              aria-label="Выпуск"
            />
            <Button disabled={!release} loading={adding} onClick={() => void toRelease(false)}>
              Добавить
            </Button>
            <Button variant="default" onClick={() => setChecked(new Set())}>
              Снять выбор
            </Button>
          </Group>
        </Paper>
      )}
      <PublicationViewModal publication={open} operator onClose={() => setOpen(null)} />
      <ConfirmModal
        opened={confirming}
        title="Опубликовать одобренные"
        onClose={() => setConfirming(false)}
        onConfirm={() => void publish()}
        loading={publishing}
      >
        <Stack gap="sm">
          <Text>Опубликовать все одобренные интернет-публикации на сайте?</Text>
          <Checkbox
            label="Включая неоплаченные"
            description="Без отметки неоплаченные публикации пропускаются и остаются одобренными"
            checked={includeUnpaid}
            onChange={(e) => setIncludeUnpaid(e.currentTarget.checked)}
          />
        </Stack>
      </ConfirmModal>
      <ConfirmModal
        opened={releaseAsk !== null}
        title="Добавление в выпуск без оплаты"
        onClose={() => setReleaseAsk(null)}
        onConfirm={() => void toRelease(true)}
        loading={adding}
        color="orange"
        confirmLabel="Добавить без оплаты"
        cancelLabel="Отмена"
      >
        {releaseAsk ?? ''}
      </ConfirmModal>
    </ListPage>
  );
}
