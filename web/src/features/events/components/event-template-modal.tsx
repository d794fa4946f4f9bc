import { useState } from 'react';
import { Button, Grid, Group, Modal, Stack, TextInput } from '@mantine/core';
import { EventMessages, type EventRow } from '@edu/domain/events/event';
import { Messages } from '@edu/domain/common/messages';
import { MacroPanel } from '../../../components/macro-panel';
import { RichTextEditor } from '../../../components/rich-text-editor';
import { errorMessage } from '../../../lib/api-client';
import { fieldErrorsOf } from '../../../lib/field-errors';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useNarrow } from '../../../lib/use-narrow';
import { useSaveEvent } from '../api/save-event';
import { focusFirstInvalid } from '../../../lib/focus-invalid';

/** Modal 'Шаблон' (spec 03 §2): macros on the left, subject and rich-text body, Save; server field errors under the fields. */
export function EventTemplateModal({ event, onClose }: { event: EventRow | null; onClose: () => void }) {
  const narrow = useNarrow();
  return (
    <Modal opened={event !== null} onClose={onClose} title={`${EventMessages.template}: ${event?.fdv ?? ''}`} size={1100} fullScreen={narrow} centered>
      {event && <TemplateForm key={event.id} event={event} narrow={narrow} onClose={onClose} />}
    </Modal>
  );
}

function TemplateForm({ event, narrow, onClose }: { event: EventRow; narrow: boolean; onClose: () => void }) {
  const save = useSaveEvent();
  const [dv, setDv] = useState(event.dv ?? '');
  const [content, setContent] = useState(event.content ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});

  async function submit() {
    const local: Record<string, string> = {};
    if (!dv.trim()) local.dv = EventMessages.required;
    if (!content.replace(/<[^>]*>/g, '').trim()) local.content = EventMessages.required;
    if (Object.keys(local).length > 0) {
      setErrors(local);
      focusFirstInvalid();
      notifyError(Messages.required);
      return;
    }
    try {
      const answer = await save.mutateAsync({ id: event.id, dv, content });
      notifySuccess(answer.message || Messages.saved);
      onClose();
    } catch (error) {
      setErrors(fieldErrorsOf(error));
      focusFirstInvalid();
      notifyError(errorMessage(error));
    }
  }

  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, md: 4 }} order={{ base: 2, md: 1 }}>
        <MacroPanel height={narrow ? 260 : 470} />
      </Grid.Col>
      <Grid.Col span={{ base: 12, md: 8 }} order={{ base: 1, md: 2 }}>
        <Stack gap="md">
          <TextInput label={EventMessages.subject} value={dv} onChange={(e) => setDv(e.currentTarget.value)} error={errors.dv} withAsterisk />
          <RichTextEditor label={EventMessages.body} value={content} onChange={setContent} error={errors.content} minHeight={300} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Отмена
            </Button>
            <Button onClick={() => void submit()} loading={save.isPending}>
              {EventMessages.save}
            </Button>
          </Group>
        </Stack>
      </Grid.Col>
    </Grid>
  );
}
