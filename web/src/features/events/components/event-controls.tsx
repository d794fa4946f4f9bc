import { Select, Switch } from '@mantine/core';
import { EventMessages, type EventRow } from '@edu/domain/events/event';
import { Messages } from '@edu/domain/common/messages';
import { errorMessage } from '../../../lib/api-client';
import { fieldErrorsOf } from '../../../lib/field-errors';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useSaveEvent } from '../api/save-event';
import type { NotificationTemplate } from '../api/get-notification-templates';

const NONE = '0';

/** The notification-template dropdown of an event (templates of type 5); saved on change. */
export function NotificationTemplateSelect({ event, templates }: { event: EventRow; templates: NotificationTemplate[] }) {
  const save = useSaveEvent();
  const data = [{ value: NONE, label: EventMessages.noNotification }, ...templates.map((t) => ({ value: String(t.id), label: t.title }))];
  async function change(value: string | null) {
    try {
      await save.mutateAsync({ id: event.id, template_id: value && value !== NONE ? Number(value) : null });
      notifySuccess(Messages.saved);
    } catch (error) {
      notifyError(Object.values(fieldErrorsOf(error))[0] ?? errorMessage(error));
    }
  }
  return (
    <Select
      aria-label={`${EventMessages.notificationTemplate}: ${event.fdv}`}
      data={data}
      value={event.template_id ? String(event.template_id) : NONE}
      onChange={(v) => void change(v)}
      allowDeselect={false}
      disabled={save.isPending}
      comboboxProps={{ withinPortal: true }}
      // A chosen title shows whole ('Публикация требует доработок', not 'Публикация требует дора'):
      // the whole card on a phone, a column at least this wide in the table.
      w="100%"
      miw={{ base: 0, lg: 320 }}
      rightSectionWidth={24}
    />
  );
}

/** The mailing switch of an event; saved on change. */
export function MailingSwitch({ event, withLabel = false }: { event: EventRow; withLabel?: boolean }) {
  const save = useSaveEvent();
  async function change(checked: boolean) {
    try {
      await save.mutateAsync({ id: event.id, is_mailing: checked });
      notifySuccess(Messages.saved);
    } catch (error) {
      notifyError(errorMessage(error));
    }
  }
  return (
    <Switch
      checked={event.is_mailing}
      onChange={(e) => void change(e.currentTarget.checked)}
      disabled={save.isPending}
      label={withLabel ? EventMessages.mailing : undefined}
      aria-label={`${EventMessages.mailing}: ${event.fdv}`}
    />
  );
}
