import { useState } from 'react';
import { Button, Group, Stack } from '@mantine/core';
import { EntryMessages, type Entry } from '@edu/domain/entries/entry';
import type { Service } from '@edu/domain/services/service';
import { errorMessage } from '../../../lib/api-client';
import { fieldErrorsOf } from '../../../lib/field-errors';
import { notifySuccess } from '../../../lib/notify';
import { useUpdateEntry } from '../api/update-entry';
import { FormProblem, ParticipationField, PayTypeField } from './entry-choice-fields';
import { EntryServiceModal } from './entry-service-modal';
import { SectionChoice } from './section-choice';
import { focusFirstInvalid } from '../../../lib/focus-invalid';

/** Section, payment type and participation of an unpaid entry (spec 01 §4). */
export function EditEntryModal({ entry, onClose }: { entry: Entry | null; onClose: () => void }) {
  return (
    <EntryServiceModal entry={entry} onClose={onClose}>
      {(e, service) => <EditEntryForm key={e.id} entry={e} service={service} onClose={onClose} />}
    </EntryServiceModal>
  );
}

function EditEntryForm({ entry, service, onClose }: { entry: Entry; service: Service; onClose: () => void }) {
  const update = useUpdateEntry();
  const [section, setSection] = useState<string | null>(entry.section_id ? String(entry.section_id) : null);
  const [payType, setPayType] = useState(String(entry.pay_type));
  const [extramural, setExtramural] = useState(String(entry.is_extramural));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const needsSection = service.sections.length > 0;

  async function save() {
    if (needsSection && !section) {
      setErrors({ section_id: EntryMessages.chooseSection });
      focusFirstInvalid();
      return;
    }
    setErrors({});
    setProblem(null);
    try {
      const answer = await update.mutateAsync({
        id: entry.id,
        ...(needsSection ? { section_id: section ? Number(section) : null } : {}),
        pay_type: Number(payType),
        is_extramural: extramural === '1' ? 1 : 0,
      });
      notifySuccess(answer.message);
      onClose();
    } catch (error) {
      const fields = fieldErrorsOf(error);
      setErrors(fields);
      focusFirstInvalid();
      if (!fields.section_id && !fields.pay_type && !fields.is_extramural) setProblem(errorMessage(error));
    }
  }

  return (
    <Stack gap="md">
      {needsSection && (
        <SectionChoice
          sections={service.sections}
          maxParticipants={service.max_participants}
          value={section}
          onChange={setSection}
          error={errors.section_id || null}
          currentId={entry.section_id}
        />
      )}
      <PayTypeField value={payType} onChange={setPayType} error={errors.pay_type} />
      <ParticipationField participationType={service.participation_type} value={extramural} onChange={setExtramural} error={errors.is_extramural} />
      <FormProblem problem={problem} />
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose}>
          Отмена
        </Button>
        <Button
          onClick={() => void save()}
          loading={update.isPending}
          data-disabled={(needsSection && !section) || undefined}
          aria-disabled={(needsSection && !section) || undefined}
        >
          Сохранить
        </Button>
      </Group>
    </Stack>
  );
}
