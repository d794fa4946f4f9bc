import { Radio, Stack, Text } from '@mantine/core';
import { EntryMessages } from '@edu/domain/entries/entry';
import { seatLimit, type ServiceSection } from '@edu/domain/services/service';

interface SectionChoiceProps {
  sections: ServiceSection[];
  maxParticipants: number;
  value: string | null;
  onChange: (value: string) => void;
  error?: string | null;
  /** The section the entry already holds does not need a free seat. */
  currentId?: number | null;
}

/** The required section radio list with free seats; its error ('Выберите секцию!') comes from a submit, never from an untouched form. */
export function SectionChoice({ sections, maxParticipants, value, onChange, error, currentId = null }: SectionChoiceProps) {
  const limit = seatLimit(maxParticipants);
  return (
    <Radio.Group label="Секция" withAsterisk value={value} onChange={onChange} error={error}>
      <Stack gap={10} mt={8} mb={4}>
        {sections.map((section) => {
          const free = Math.max(0, limit - section.participants_num);
          const full = free === 0 && section.id !== currentId;
          return (
            <Radio
              key={section.id}
              value={String(section.id)}
              disabled={full}
              label={section.title}
              description={
                <Text span size="xs" c={full ? 'red.7' : 'dimmed'}>
                  {full ? EntryMessages.sectionFull : `Свободных мест: ${free}`}
                </Text>
              }
            />
          );
        })}
      </Stack>
    </Radio.Group>
  );
}
