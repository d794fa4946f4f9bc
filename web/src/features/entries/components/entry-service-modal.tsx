import type { ReactNode } from 'react';
import { Center, Loader, Modal } from '@mantine/core';
import type { Entry } from '@edu/domain/entries/entry';
import type { Service } from '@edu/domain/services/service';
import { errorMessage } from '../../../lib/api-client';
import { useService } from '../../../lib/get-service';
import { FormProblem } from './entry-choice-fields';

/** The modal 'Заявка № …' of a form that needs the entry's service: a loader until it comes, its error if it fails. */
export function EntryServiceModal({
  entry,
  onClose,
  testId,
  children,
}: {
  entry: Entry | null;
  onClose: () => void;
  testId?: string;
  children: (entry: Entry, service: Service) => ReactNode;
}) {
  const service = useService(entry?.service_id ?? null);
  return (
    <Modal opened={entry !== null} onClose={onClose} title={entry ? `Заявка № ${entry.number}` : ''} size="lg" data-testid={testId}>
      {entry && service.data ? (
        children(entry, service.data)
      ) : service.isError ? (
        <FormProblem problem={errorMessage(service.error)} />
      ) : (
        <Center py="xl">
          <Loader type="dots" role="status" aria-label="Загрузка" />
        </Center>
      )}
    </Modal>
  );
}
