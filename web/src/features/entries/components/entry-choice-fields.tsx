import { Alert, Input, SegmentedControl } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { participationOptions, payTypeOptions } from './participation';

/** Pay type (Банк, Офис, Онлайн; users cannot pick 'Другое'), shared by the entry form and its edit. */
export function PayTypeField({ value, onChange, error }: { value: string; onChange: (v: string) => void; error?: string }) {
  return (
    <Input.Wrapper label="Способ оплаты" error={error}>
      <div>
        <SegmentedControl mt={6} value={value} onChange={onChange} data={payTypeOptions} aria-label="Способ оплаты" />
      </div>
    </Input.Wrapper>
  );
}

/** Participation (Очно / Дистанционно) limited by the service's participation_type. */
export function ParticipationField({
  participationType,
  value,
  onChange,
  error,
}: {
  participationType: number;
  value: string;
  onChange: (v: string) => void;
  error?: string;
}) {
  return (
    <Input.Wrapper label="Форма участия" error={error}>
      <div>
        <SegmentedControl mt={6} value={value} onChange={onChange} data={participationOptions(participationType)} aria-label="Форма участия" />
      </div>
    </Input.Wrapper>
  );
}

/** The form-level problem (a server message that belongs to no single field). */
export function FormProblem({ problem }: { problem: string | null | undefined }) {
  if (!problem) return null;
  return (
    <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
      {problem}
    </Alert>
  );
}
