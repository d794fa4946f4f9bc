import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { Alert, Button, Group, Modal, Skeleton, Stack } from '@mantine/core';
import type { Entry } from '@edu/domain/entries/entry';
import { errorMessage } from '../../../lib/api-client';
import { useArticleEntry } from '../api/get-article-entry';
import { isOperator } from '@edu/domain/common/codes';
import { useCurrentUser } from '../../../lib/current-user';
import { notifyInfo, notifySuccess } from '../../../lib/notify';
import { focusFirstInvalid } from '../../../lib/focus-invalid';
import { usePublicationServices } from '../api/get-publication-services';
import { usePublicationSlots } from '../api/get-publication-slots';
import { savePublication, useInvalidatePublications } from '../api/manage-publication';
import { PublicationMessages } from '../api/types';
import { ClientPicker } from './client-picker';
import { handleSaveError, initialState, PublicationForm, toFormData, validateForm, type PublicationFormState } from './publication-form';

interface CreateModalProps {
  opened: boolean;
  onClose: () => void;
  /** Preselected publication service (from the catalogue). */
  serviceId?: number | null;
  /** The paid entry the article is for («Добавить статью» in «Мои заявки»): sent as entry_id, nothing is charged again. */
  entryId?: number | null;
}

/** 'Добавить публикацию': the publication entry form; the entry it creates is then paid like any other. */
export function PublicationCreateModal({ opened, onClose, serviceId = null, entryId = null }: CreateModalProps) {
  // A phone gets the whole screen: a long form reads better than in a floating box.
  const phone = useMediaQuery('(max-width: 575px)');
  return (
    <Modal opened={opened} onClose={onClose} title="Новая публикация" size="xl" centered={false} fullScreen={phone}>
      {opened &&
        (entryId !== null ? (
          <ArticleOfEntryForm entryId={entryId} onDone={onClose} />
        ) : (
          <PublicationCreateForm onDone={onClose} onCancel={onClose} serviceId={serviceId} />
        ))}
    </Modal>
  );
}

/** Loads the entry, then the form with its service fixed. */
function ArticleOfEntryForm({ entryId, onDone }: { entryId: number; onDone: () => void }) {
  const entry = useArticleEntry(entryId);
  if (entry.isError) return <Alert color="red">{errorMessage(entry.error)}</Alert>;
  if (!entry.data) return <Skeleton h={320} radius="md" />;
  if (!entry.data.can_add_publication) return <Alert color="yellow">{PublicationMessages.entryHasPublication}</Alert>;
  return <PublicationCreateForm entry={entry.data} serviceId={entry.data.service_id} onDone={onDone} onCancel={onDone} />;
}

interface CreateFormProps {
  serviceId?: number | null;
  /** The entry the article is for (its service is fixed, its payment covers the article). */
  entry?: Entry | null;
  /** Only the services of this subtype (the catalogue's publication subtype). */
  subtypeId?: number | null;
  onDone: () => void;
  onCancel?: () => void;
}

/** The publication entry form: the publication and its entry are created together, the entry then paid. */
export function PublicationCreateForm({ serviceId = null, subtypeId = null, entry = null, onDone, onCancel }: CreateFormProps) {
  const me = useCurrentUser();
  const operator = isOperator(me.data);
  const services = usePublicationServices();
  const preselected = serviceId ?? (subtypeId !== null ? ((services.data ?? []).find((s) => s.dict_subtype_id === subtypeId)?.id ?? null) : null);
  const invalidate = useInvalidatePublications();
  const [form, setForm] = useState<PublicationFormState>(() => initialState(null, me.data ? { user_id: me.data.id, fio: me.data.fio } : null, serviceId));
  // The client's publications paid for already (a package's): offered first, the server uses them first (issue 28).
  const ownerId = form.authors[0]?.user_id ?? null;
  const slots = usePublicationSlots(operator ? ownerId : null, !entry && (!operator || ownerId !== null));
  const offered = (slots.data ?? []).find((s) =>
    (services.data ?? []).some((x) => x.id === s.service.id && (subtypeId === null || x.dict_subtype_id === subtypeId)),
  );
  const firstChoice = preselected ?? offered?.service.id ?? null;
  if (firstChoice !== null && form.service_id === null) setForm({ ...form, service_id: String(firstChoice) });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);

  async function submit() {
    const service = (services.data ?? []).find((s) => String(s.id) === form.service_id);
    const local = validateForm(form, service);
    setErrors(local);
    if (Object.keys(local).length > 0) {
      focusFirstInvalid();
      return;
    }
    setBusy(true);
    try {
      const body = toFormData(form, true);
      if (entry) {
        // The article of an entry already bought: the entry is named, no new one is made.
        body.delete('service_id');
        body.set('entry_id', String(entry.id));
      }
      // An operator's publication for a client: the client owns it and its entry.
      const owner = form.authors[0]?.user_id;
      if (!entry && operator && owner && owner !== me.data?.id) body.set('user_id', String(owner));
      const answer = await savePublication(null, body);
      notifySuccess(PublicationMessages.saved);
      // Which paid entry it went to, or why a new one is to be paid.
      if (answer?.entry_note) notifyInfo(answer.entry_note);
      notifyInfo(answer?.info ?? PublicationMessages.willBeChecked);
      invalidate();
      onDone();
    } catch (error) {
      handleSaveError(error, setErrors);
    } finally {
      setBusy(false);
    }
  }

  const owner = form.authors[0];
  return (
    <Stack gap="sm">
      {operator && !entry && (
        <ClientPicker
          value={owner?.user_id ? { id: owner.user_id, fio: owner.fio } : null}
          onChange={(client) =>
            setForm((f) => ({ ...f, authors: [{ user_id: client.id, fio: client.fio }, ...f.authors.slice(1).filter((a) => a.user_id !== client.id)] }))
          }
        />
      )}
      <PublicationForm
        publication={null}
        value={form}
        onChange={setForm}
        errors={errors}
        subtypeId={subtypeId}
        entry={entry}
        slots={entry ? [] : (slots.data ?? [])}
        onAddAuthor={(u) => setForm((f) => ({ ...f, authors: [...f.authors, { user_id: u.id, fio: u.fio }] }))}
        footer={
          <Group justify="flex-end">
            {onCancel && (
              <Button variant="default" onClick={onCancel}>
                Отмена
              </Button>
            )}
            <Button loading={busy} onClick={() => void submit()}>
              Отправить
            </Button>
          </Group>
        }
      />
    </Stack>
  );
}
