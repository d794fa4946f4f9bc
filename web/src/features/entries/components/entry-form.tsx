import { useState } from 'react';
import { Alert, Badge, Button, Divider, Group, Stack, Text } from '@mantine/core';
import { IconAlertCircle, IconCalendarEvent } from '@tabler/icons-react';
import { DateType, PayType } from '@edu/domain/common/codes';
import { formatPrice } from '@edu/domain/common/format';
import { defaultExtramural, EntryMessages, type Entry } from '@edu/domain/entries/entry';
import type { Service } from '@edu/domain/services/service';
import { errorMessage, isApiError } from '../../../lib/api-client';
import { fieldErrorsOf } from '../../../lib/field-errors';
import { paletteColor } from '../../../lib/colors';
import { notifySuccess } from '../../../lib/notify';
import { pointsText } from '../../../lib/text';
import { HtmlContent } from '../../../components/html-content';
import { useCreateEntry } from '../api/create-entry';
import { FormProblem, ParticipationField, PayTypeField } from './entry-choice-fields';
import { SectionChoice } from './section-choice';
import { focusFirstInvalid } from '../../../lib/focus-invalid';

/** Step 1 of the entry flow: section, payment type, participation, 'Отправить заявку'. */
export function EntryForm({ service, onCreated }: { service: Service; onCreated: (entry: Entry) => void }) {
  const create = useCreateEntry();
  const [section, setSection] = useState<string | null>(null);
  const [payType, setPayType] = useState(String(PayType.online));
  const [extramural, setExtramural] = useState(String(defaultExtramural(service.participation_type)));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);

  const needsSection = service.sections.length > 0;
  // Without a section the button looks disabled (spec 01 §5) yet answers a press: it says why, at the field.
  const sectionMissing = needsSection && !section;
  const paid = service.price > 0;

  async function submit() {
    if (sectionMissing) {
      setErrors({ section_id: EntryMessages.chooseSection });
      focusFirstInvalid();
      return;
    }
    setErrors({});
    setProblem(null);
    try {
      const answer = await create.mutateAsync({
        service_id: service.id,
        section_id: section ? Number(section) : null,
        pay_type: Number(payType),
        is_extramural: extramural === '1' ? 1 : 0,
      });
      notifySuccess(answer.message || EntryMessages.sent);
      // data is null only when the entry is gone again before it could be read.
      if (answer.data) onCreated(answer.data);
    } catch (error) {
      const fields = fieldErrorsOf(error);
      setErrors(fields);
      focusFirstInvalid();
      const shownUnderField = fields.section_id || fields.pay_type || fields.is_extramural;
      if (!shownUnderField) setProblem(fields.service_id ?? (isApiError(error) ? error.message : errorMessage(error)));
    }
  }

  return (
    <Stack gap="md">
      <Group gap="sm">
        {service.type && (
          <Badge color={paletteColor(service.type.color)} variant="light" tt="none">
            {service.type.fdv}
          </Badge>
        )}
        {service.date_type === DateType.specific && service.interval_formatted && (
          <Group gap={4} c="dimmed" wrap="nowrap">
            <IconCalendarEvent size={16} stroke={1.6} />
            <Text size="sm">{service.interval_formatted}</Text>
          </Group>
        )}
      </Group>
      <Group gap="lg">
        <Text fw={700} size="xl">
          {formatPrice(service.price)}
        </Text>
        {service.points > 0 && (
          <Text c="teal.7" fw={500}>
            +{pointsText(service.points)}
          </Text>
        )}
      </Group>

      <HtmlContent html={service.description} fz="sm" />

      <Divider />

      {service.is_done && (
        <Alert color="gray" variant="light" icon={<IconAlertCircle size={18} />}>
          {EntryMessages.serviceUnavailable}
        </Alert>
      )}

      {needsSection && (
        <SectionChoice
          sections={service.sections}
          maxParticipants={service.max_participants}
          value={section}
          onChange={(v) => {
            setSection(v);
            setErrors((e) => ({ ...e, section_id: '' }));
          }}
          error={errors.section_id || null}
        />
      )}

      {paid && <PayTypeField value={payType} onChange={setPayType} error={errors.pay_type} />}

      <ParticipationField participationType={service.participation_type} value={extramural} onChange={setExtramural} error={errors.is_extramural} />

      <FormProblem problem={problem} />

      <Group justify="flex-end">
        <Button
          onClick={() => void submit()}
          disabled={service.is_done}
          data-disabled={sectionMissing || undefined}
          aria-disabled={sectionMissing || undefined}
          loading={create.isPending}
        >
          Отправить заявку
        </Button>
      </Group>
    </Stack>
  );
}
