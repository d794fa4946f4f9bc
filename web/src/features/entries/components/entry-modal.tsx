import { useState } from 'react';
import { Center, Loader, Modal, Stepper } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { EntryStatus } from '@edu/domain/common/codes';
import type { Entry } from '@edu/domain/entries/entry';
import type { Service } from '@edu/domain/services/service';
import { EntryForm } from './entry-form';
import { PayStep } from './pay-step';
import { ThesisForm } from './thesis-form';

interface EntryModalProps {
  opened: boolean;
  /** null while the service loads. */
  service: Service | null;
  onClose: () => void;
}

/**
 * The enrol modal (spec 01 §2, §4 Entry flow): the form, then theses when the service needs them
 * (skippable), then the pay step when the entry has a price; a free entry closes after theses.
 */
export function EntryModal({ opened, service, onClose }: EntryModalProps) {
  const narrow = useMediaQuery('(max-width: 36em)');
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={service?.title ?? 'Услуга'}
      size="lg"
      fullScreen={narrow}
      styles={{ title: { fontWeight: 650, lineHeight: 1.35 } }}
    >
      {service ? (
        <EntryFlow key={service.id} service={service} onClose={onClose} />
      ) : (
        <Center py="xl">
          <Loader type="dots" role="status" aria-label="Загрузка" />
        </Center>
      )}
    </Modal>
  );
}

type Step = 'form' | 'thesis' | 'pay';

function EntryFlow({ service, onClose }: { service: Service; onClose: () => void }) {
  const [step, setStep] = useState<Step>('form');
  const [entry, setEntry] = useState<Entry | null>(null);
  const needsPay = (e: Entry) => e.price > 0 && e.status === EntryStatus.notPaid;

  const steps: Step[] = ['form'];
  if (service.is_thesis_needed) steps.push('thesis');
  if (service.price > 0) steps.push('pay');

  function afterTheses(created: Entry) {
    if (needsPay(created)) setStep('pay');
    else onClose();
  }

  function created(e: Entry) {
    setEntry(e);
    if (service.is_thesis_needed) setStep('thesis');
    else afterTheses(e);
  }

  return (
    <>
      {steps.length > 1 && (
        <Stepper active={steps.indexOf(step)} size="xs" mb="lg" allowNextStepsSelect={false}>
          <Stepper.Step label="Заявка" />
          {steps.includes('thesis') && <Stepper.Step label="Тезисы" />}
          {steps.includes('pay') && <Stepper.Step label="Оплата" />}
        </Stepper>
      )}
      {step === 'form' && <EntryForm service={service} onCreated={created} />}
      {step === 'thesis' && entry && <ThesisForm entryId={entry.id} onDone={() => afterTheses(entry)} onSkip={() => afterTheses(entry)} />}
      {step === 'pay' && entry && <PayStep entryId={entry.id} price={entry.price} numbers={[entry.number]} invoice={entry.printable.includes('invoice')} />}
    </>
  );
}
