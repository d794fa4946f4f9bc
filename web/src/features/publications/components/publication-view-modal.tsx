import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { ActionIcon, Alert, Anchor, Button, Checkbox, Group, Modal, Skeleton, Stack, Text, Textarea, Tooltip } from '@mantine/core';
import { IconAlertTriangle, IconTrash } from '@tabler/icons-react';
import { formatRub } from '@edu/domain/common/format';
import { PublicationStatus } from '@edu/domain/common/codes';
import { ConfirmModal } from '../../../components/confirm-modal';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { notifyError, notifyInfo, notifySuccess } from '../../../lib/notify';
import { usePublication } from '../api/get-publications';
import { addAuthor, runAction, savePublication, useInvalidatePublications } from '../api/manage-publication';
import { canTransition, cut, DisplayCuts } from '@edu/domain/publications/publication';
import { PublicationMessages, type Publication } from '../api/types';
import { handleSaveError, initialState, PublicationForm, toFormData, type PublicationFormState } from './publication-form';
import { PublicationFileLink } from './publication-file-link';
import { PublicationPaymentBadge } from './payment-badge';
import { PublicationStatusBadge } from './status-badge';
import { UniquenessBlock } from './uniqueness-block';

interface ViewModalProps {
  /** The row clicked (shown at once; the full record loads behind it). */
  publication: Publication | null;
  operator: boolean;
  onClose: () => void;
}

/**
 * The publication view modal (spec 03 §2): users read it, and edit it only while it needs rework
 * (saving sends it back to the check); operators get the action panel and edit at any status.
 */
export function PublicationViewModal({ publication, operator, onClose }: ViewModalProps) {
  // A phone gets the whole screen: a long form reads better than in a floating box.
  const phone = useMediaQuery('(max-width: 575px)');
  // The publication a match was copied from, opened over this one (operators); Escape closes only it.
  const [sourceId, setSourceId] = useState<number | null>(null);
  return (
    <>
      <Modal
        opened={publication !== null}
        onClose={onClose}
        closeOnEscape={sourceId === null}
        title="Публикация"
        size="xl"
        centered={false}
        fullScreen={phone}
        data-testid="publication-modal"
      >
        {publication && <ViewBody key={publication.id} initial={publication} operator={operator} onClose={onClose} onOpenSource={setSourceId} />}
      </Modal>
      {sourceId !== null && <PublicationByIdModal publicationId={sourceId} operator={operator} onClose={() => setSourceId(null)} />}
    </>
  );
}

/** The view modal of a publication known by its id (a match's source, an entry's publication): loads it, then shows it. */
export function PublicationByIdModal({ publicationId, operator, onClose }: { publicationId: number | null; operator: boolean; onClose: () => void }) {
  const detail = usePublication(publicationId);
  const phone = useMediaQuery('(max-width: 575px)');
  if (publicationId !== null && !detail.data) {
    return (
      <Modal opened onClose={onClose} title="Публикация" size="xl" centered={false} fullScreen={phone}>
        {detail.isError ? <Alert color="red">{errorMessage(detail.error)}</Alert> : <Skeleton h={240} radius="md" />}
      </Modal>
    );
  }
  return (
    <PublicationViewModal
      publication={publicationId !== null && detail.data?.id === publicationId ? detail.data : null}
      operator={operator}
      onClose={onClose}
    />
  );
}

function ViewBody({
  initial,
  operator,
  onClose,
  onOpenSource,
}: {
  initial: Publication;
  operator: boolean;
  onClose: () => void;
  onOpenSource: (id: number) => void;
}) {
  const detail = usePublication(initial.id);
  const p = detail.data ?? initial;
  const invalidate = useInvalidatePublications();
  const [form, setForm] = useState<PublicationFormState>(() => initialState(initial, null));
  const [loadedFrom, setLoadedFrom] = useState<Publication>(initial);
  if (detail.data && detail.data !== loadedFrom) {
    setLoadedFrom(detail.data);
    setForm(initialState(detail.data, null));
  }
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [comment, setComment] = useState(p.manager_comment ?? '');
  const [commentError, setCommentError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [isJournal, setIsJournal] = useState(initial.is_journal);
  // The question before moving an unpaid publication (the server's words when it refused).
  const [unpaidAsk, setUnpaidAsk] = useState<{ kind: 'accept' | 'send-to-journal'; message: string } | null>(null);

  const rework = p.status === PublicationStatus.rework;
  const editable = operator || rework;
  const fileOnly = Boolean(p.file) && !p.text;

  /** Saves the form; the server's success text ('Успешно сохранено!' or, after a type change, 'Тип и выпуск успешно обнолвены!'), or null. */
  async function save(): Promise<string | null> {
    try {
      const body = toFormData(form, false);
      if (operator) body.set('is_journal', isJournal ? '1' : '0');
      const answer = await savePublication(p.id, body);
      setErrors({});
      return answer?.message ?? PublicationMessages.saved;
    } catch (error) {
      handleSaveError(error, setErrors);
      return null;
    }
  }

  async function act(name: string, run: () => Promise<void>) {
    setBusy(name);
    try {
      await run();
    } finally {
      setBusy(null);
      invalidate();
    }
  }

  const onSave = () =>
    act('save', async () => {
      const message = await save();
      if (message) {
        notifySuccess(message);
        if (!operator) onClose();
      }
    });

  /**
   * Approves (or sends to the journal). An unpaid publication is moved only after the operator
   * confirmed it (`confirm_unpaid`; the server refuses otherwise). A failure shows the server's
   * message and keeps the window open; the success notice only on success (issue 28).
   */
  async function move(kind: 'accept' | 'send-to-journal', confirm: boolean) {
    try {
      await runAction(p.id, { kind, confirm_unpaid: confirm });
    } catch (error) {
      // Unpaid after all (e.g. refunded meanwhile): ask, with the server's words.
      if (!confirm && error instanceof ApiError && error.fieldError('confirm_unpaid')) setUnpaidAsk({ kind, message: error.message });
      else notifyError(errorMessage(error));
      return;
    }
    notifySuccess(kind === 'accept' ? PublicationMessages.approved : PublicationMessages.statusChanged);
    onClose();
  }

  /** Moves at once when paid; an unpaid one asks first. */
  const moveOrAsk = async (kind: 'accept' | 'send-to-journal') => {
    if (p.is_paid) await move(kind, false);
    else setUnpaidAsk({ kind, message: kind === 'accept' ? PublicationMessages.confirmUnpaidApprove : PublicationMessages.confirmUnpaidJournal });
  };

  // 'Одобрить' saves first, then approves (spec 03 §8).
  const onApprove = () =>
    act('accept', async () => {
      if ((await save()) === null) return;
      await moveOrAsk('accept');
    });

  const onConfirmUnpaid = () => {
    const kind = unpaidAsk?.kind;
    setUnpaidAsk(null);
    if (kind) void act(kind, () => move(kind, true));
  };

  const statusAction = (name: 'decline' | 'reject' | 'send-to-journal' | 'silent') =>
    act(name, async () => {
      if (name === 'send-to-journal') return moveOrAsk('send-to-journal');
      if (name === 'reject' && !comment.trim()) {
        setCommentError(PublicationMessages.rejectReason);
        return;
      }
      setCommentError(null);
      try {
        if (name === 'decline') await runAction(p.id, { kind: 'decline', manager_comment: comment.trim() });
        else if (name === 'reject') await runAction(p.id, { kind: 'reject', manager_comment: comment.trim(), is_silent: false });
        else await runAction(p.id, { kind: 'reject', manager_comment: comment.trim(), is_silent: true });
        notifySuccess(PublicationMessages.statusChanged);
        onClose();
      } catch (error) {
        const fields = (error as { errors?: Record<string, string[]> }).errors;
        if (fields?.manager_comment?.[0]) setCommentError(fields.manager_comment[0]);
        notifyError(errorMessage(error));
      }
    });

  const onCheck = () =>
    act('check', async () => {
      try {
        const answer = await runAction(p.id, { kind: 'check-uniqueness' });
        // Done, or already queued or running: the answer says which.
        if (answer?.message && answer.message !== PublicationMessages.checkDone) notifyInfo(answer.message);
        await detail.refetch();
      } catch (error) {
        notifyError(errorMessage(error));
      }
    });

  const onAddAuthor = (author: { id: number; fio: string }) =>
    act('author', async () => {
      try {
        await addAuthor(p.id, author.id);
        notifySuccess(PublicationMessages.authorAdded);
        await detail.refetch();
      } catch (error) {
        notifyError(errorMessage(error));
      }
    });

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start" gap="xs">
        <Group gap="xs">
          <PublicationStatusBadge status={p.status} label={p.statusLabel} color={p.statusColor} />
          <PublicationPaymentBadge paid={p.is_paid} />
          <Text size="sm" c="dimmed">
            {p.created_at_formatted}
          </Text>
        </Group>
        {p.price ? <Text fw={700}>{formatRub(p.price)}</Text> : null}
      </Group>
      {p.entries.length > 0 && <Text size="sm">Заявки: {p.entries.map((e) => `№ ${e.number}${e.user ? ` (${e.user.fio})` : ''}`).join(', ')}</Text>}
      {p.manager_comment && (p.status === PublicationStatus.rework || p.status === PublicationStatus.rejected) && (
        <Alert color={p.status === PublicationStatus.rejected ? 'red' : 'orange'} title="Комментарий менеджера" data-testid="publication-comment">
          {p.manager_comment}
        </Alert>
      )}

      {p.url && (
        <Group gap={6}>
          <Text size="sm">На сайте:</Text>
          <Anchor href={p.url} target="_blank" rel="noreferrer" size="sm">
            {cut(p.url.replace(/^https?:\/\//, ''), DisplayCuts.shortUrl)}
          </Anchor>
        </Group>
      )}
      {p.additionalFiles.length > 0 && (
        <Stack gap={4}>
          <Text size="sm" c="dimmed">
            Дополнительные файлы:
          </Text>
          {p.additionalFiles.map((f) => (
            <PublicationFileLink key={f.id} file={f} />
          ))}
        </Stack>
      )}

      {operator && !p.is_paid && p.entries.length > 0 && (
        <Alert color="red" variant="light" icon={<IconAlertTriangle size={16} />} p="xs" data-testid="publication-unpaid">
          {`Заявка № ${p.entries.map((e) => e.number).join(', ')} не оплачена${p.entry?.price ? ` (${formatRub(p.entry.price)})` : ''}. Одобрение, отправка в журнал и добавление в выпуск — только с подтверждением.`}
        </Alert>
      )}

      {operator && (
        <Stack gap="xs" data-testid="publication-actions">
          <Group gap="xs">
            <Button color="teal" loading={busy === 'accept'} disabled={!canTransition('accept', p.status)} onClick={onApprove}>
              Одобрить
            </Button>
            <Button
              color="orange"
              variant="light"
              loading={busy === 'decline'}
              disabled={!canTransition('decline', p.status)}
              onClick={() => statusAction('decline')}
            >
              Корректировка
            </Button>
            {p.is_journal && (
              <Button
                color="violet"
                variant="light"
                loading={busy === 'send-to-journal'}
                disabled={!canTransition('sendToJournal', p.status)}
                onClick={() => statusAction('send-to-journal')}
              >
                В журнал
              </Button>
            )}
            <Button
              color="red"
              variant="light"
              loading={busy === 'reject'}
              disabled={!canTransition('reject', p.status)}
              onClick={() => statusAction('reject')}
            >
              Отклонить
            </Button>
            <Tooltip label="Отклонить без уведомления">
              <ActionIcon
                color="red"
                variant="subtle"
                size="lg"
                aria-label="Отклонить без уведомления"
                loading={busy === 'silent'}
                disabled={!canTransition('reject', p.status)}
                onClick={() => statusAction('silent')}
              >
                <IconTrash size={18} />
              </ActionIcon>
            </Tooltip>
            <Button variant="default" loading={busy === 'check'} disabled={fileOnly} onClick={onCheck}>
              Проверить
            </Button>
          </Group>
          {fileOnly && (
            <Alert color="yellow" icon={<IconAlertTriangle size={16} />} p="xs">
              {PublicationMessages.checkFileOnly}
            </Alert>
          )}
          <Textarea
            label="Комментарий"
            placeholder="Причина отклонения или что доработать"
            autosize
            minRows={2}
            value={comment}
            onChange={(e) => setComment(e.currentTarget.value)}
            error={commentError}
          />
          <Checkbox label="Для журнала (доступна кнопка «В журнал»)" checked={isJournal} onChange={(e) => setIsJournal(e.currentTarget.checked)} />
          <UniquenessBlock publication={p} onOpenSource={operator ? onOpenSource : undefined} />
        </Stack>
      )}

      <PublicationForm
        publication={p}
        value={form}
        onChange={setForm}
        errors={errors}
        readOnly={!editable}
        serviceEditable={operator}
        onAddAuthor={operator ? onAddAuthor : undefined}
        footer={
          editable ? (
            <Group justify="flex-end">
              <Button loading={busy === 'save'} onClick={onSave}>
                {operator ? 'Сохранить' : 'Отправить на проверку'}
              </Button>
            </Group>
          ) : null
        }
      />
      <ConfirmModal
        opened={unpaidAsk !== null}
        title={unpaidAsk?.kind === 'send-to-journal' ? 'В журнал без оплаты' : 'Одобрение без оплаты'}
        onClose={() => setUnpaidAsk(null)}
        onConfirm={onConfirmUnpaid}
        color="orange"
        confirmLabel={unpaidAsk?.kind === 'send-to-journal' ? 'Отправить без оплаты' : 'Одобрить без оплаты'}
        cancelLabel="Отмена"
      >
        {unpaidAsk?.message ?? ''}
      </ConfirmModal>
    </Stack>
  );
}
