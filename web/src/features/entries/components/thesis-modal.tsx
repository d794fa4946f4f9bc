import { Modal, Text } from '@mantine/core';
import type { Entry } from '@edu/domain/entries/entry';
import { ThesisForm } from './thesis-form';

/** Theses of an entry from the list (the tag button). */
export function ThesisModal({ entry, onClose }: { entry: Entry | null; onClose: () => void }) {
  return (
    <Modal opened={entry !== null} onClose={onClose} title={entry ? `Тезисы к заявке № ${entry.number}` : ''} size="lg">
      {entry && (
        <>
          <Text size="sm" c="dimmed" mb="sm">
            {entry.service.title}
          </Text>
          <ThesisForm key={entry.id} entryId={entry.id} initialText={entry.thesis?.text ?? ''} onDone={onClose} onSkip={onClose} skipLabel="Отмена" />
        </>
      )}
    </Modal>
  );
}
