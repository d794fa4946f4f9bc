import { useState } from 'react';
import { Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { THESIS_RANGE_TEXT, thesisLengthProblem } from '@edu/domain/entries/entry';
import { errorMessage } from '../../../lib/api-client';
import { fieldErrorsOf } from '../../../lib/field-errors';
import { focusFirstInvalid } from '../../../lib/focus-invalid';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useSaveThesis } from '../api/save-thesis';

interface ThesisFormProps {
  entryId: number;
  initialText?: string;
  onDone: () => void;
  /** 'Пропустить' in the entry flow; 'Отмена' when editing from the list. */
  onSkip: () => void;
  skipLabel?: string;
}

/** Theses of an entry: 1500 < length < 10000, with the counter and the rule's messages (spec 01 §5). */
export function ThesisForm({ entryId, initialText = '', onDone, onSkip, skipLabel = 'Пропустить' }: ThesisFormProps) {
  const [text, setText] = useState(initialText);
  const [serverError, setServerError] = useState<string | null>(null);
  // The length rule speaks once the text is typed into (or saved theses are opened), not on an empty new form.
  const [touched, setTouched] = useState(initialText.length > 0);
  const save = useSaveThesis();
  const problem = thesisLengthProblem(text);

  async function submit() {
    setServerError(null);
    try {
      const answer = await save.mutateAsync({ entry_id: entryId, text });
      notifySuccess(answer.message);
      onDone();
    } catch (error) {
      const fields = fieldErrorsOf(error);
      if (fields.text) {
        setServerError(fields.text);
        focusFirstInvalid();
      } else notifyError(errorMessage(error));
    }
  }

  return (
    <Stack gap="sm">
      <Textarea
        label="Тезисы"
        description="Текст тезисов для сборника материалов"
        autosize
        minRows={8}
        maxRows={16}
        value={text}
        onChange={(event) => {
          setText(event.currentTarget.value);
          setTouched(true);
          setServerError(null);
        }}
        error={serverError}
        data-autofocus
      />
      <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
        {touched ? (
          <Text size="sm" c={problem ? 'orange.8' : 'teal.7'} data-testid="thesis-problem">
            {problem ?? 'Длина тезисов в норме'}
          </Text>
        ) : (
          <span />
        )}
        <Text size="sm" c={problem ? 'dimmed' : 'teal.7'} fw={500} style={{ whiteSpace: 'nowrap' }} data-testid="thesis-counter">
          {text.length} / {THESIS_RANGE_TEXT}
        </Text>
      </Group>
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onSkip} disabled={save.isPending}>
          {skipLabel}
        </Button>
        <Button onClick={() => void submit()} disabled={Boolean(problem)} loading={save.isPending}>
          Сохранить
        </Button>
      </Group>
    </Stack>
  );
}
