import { useState, type ReactNode } from 'react';
import { Alert, Badge, Button, Divider, Group, Modal, Paper, Select, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconAlertCircle, IconCalendarEvent } from '@tabler/icons-react';
import { DateType } from '@edu/domain/common/codes';
import { formatRub } from '@edu/domain/common/format';
import { PackageMessages, packageReady, type ServicePackage } from '@edu/domain/service-packages/service-package';
import { seatLimit, type Service } from '@edu/domain/services/service';
import { errorMessage } from '../../../lib/api-client';
import { paletteColor } from '../../../lib/colors';
import { fieldErrorsOf } from '../../../lib/field-errors';
import { notifySuccess } from '../../../lib/notify';
import { HtmlContent } from '../../../components/html-content';
import { useEnrollPackage, type EnrollAnswer } from '../api/enroll-package';
import { PackagePrice } from './package-price';

export interface PackagePaySlot {
  entryId: number;
  price: number;
  numbers: string[];
}

interface PackageModalProps {
  pkg: ServicePackage | null;
  onClose: () => void;
  /** The pay step (entries feature), composed by the app. */
  renderPayStep: (slot: PackagePaySlot) => ReactNode;
}

/** Package entry modal (spec 01 §2, §4): sections per service, 'Оплатить {price} ₽', then the pay step. */
export function PackageModal({ pkg, onClose, renderPayStep }: PackageModalProps) {
  const narrow = useMediaQuery('(max-width: 36em)');
  return (
    <Modal opened={pkg !== null} onClose={onClose} title={pkg?.title ?? ''} size="lg" fullScreen={narrow} styles={{ title: { fontWeight: 650 } }}>
      {pkg && <PackageFlow key={pkg.id} pkg={pkg} renderPayStep={renderPayStep} />}
    </Modal>
  );
}

function PackageFlow({ pkg, renderPayStep }: { pkg: ServicePackage; renderPayStep: PackageModalProps['renderPayStep'] }) {
  const enroll = useEnrollPackage();
  const [chosen, setChosen] = useState<Record<string, number | null>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [result, setResult] = useState<EnrollAnswer['data'] | null>(null);
  // No paying twice for one event: a service already applied for is named before the pay button.
  const applied = pkg.applied ?? [];
  const ready = packageReady(pkg.services, chosen) && applied.length === 0;

  async function submit() {
    setProblem(null);
    const services = Object.fromEntries(pkg.services.map((s) => [String(s.id), chosen[String(s.id)] ?? null]));
    try {
      const answer = await enroll.mutateAsync({ packageId: pkg.id, services });
      if (answer.message) notifySuccess(answer.message);
      setResult(answer.data);
    } catch (error) {
      const fields = fieldErrorsOf(error);
      setProblem(Object.values(fields)[0] || errorMessage(error));
    }
  }

  const firstEntry = result?.entries[0];
  if (result && firstEntry) {
    return renderPayStep({ entryId: firstEntry.id, price: result.price, numbers: result.entries.flatMap((e) => (e ? [e.number] : [])) });
  }

  return (
    <Stack gap="md">
      <PackagePrice pkg={pkg} />
      <HtmlContent html={pkg.description} fz="sm" />
      <Divider label="Услуги пакета" labelPosition="left" />
      <Stack gap="sm">
        {pkg.services.map((service) => (
          <PackageService
            key={service.id}
            service={service}
            value={chosen[String(service.id)] ?? null}
            onChange={(sectionId) => setChosen((c) => ({ ...c, [String(service.id)]: sectionId }))}
          />
        ))}
      </Stack>
      {applied.length > 0 && (
        <Alert color="orange" variant="light" icon={<IconAlertCircle size={18} />} title={PackageMessages.alreadyAppliedShort} data-testid="package-applied">
          {applied.map((a) => {
            const service = pkg.services.find((s) => s.id === a.service_id);
            return (
              <Text key={a.entry_id} size="sm">
                {PackageMessages.alreadyApplied(service?.title ?? '', a.entry_number)}
              </Text>
            );
          })}
        </Alert>
      )}
      {problem && (
        <Alert color="red" variant="light" icon={<IconAlertCircle size={18} />} role="alert">
          {problem}
        </Alert>
      )}
      <Group justify="flex-end">
        <Button onClick={() => void submit()} disabled={!ready} loading={enroll.isPending} color={paletteColor(pkg.color, 'grape')}>
          Оплатить {formatRub(pkg.price)}
        </Button>
      </Group>
    </Stack>
  );
}

function PackageService({ service, value, onChange }: { service: Service; value: number | null; onChange: (id: number | null) => void }) {
  const limit = seatLimit(service.max_participants);
  return (
    <Paper p="sm" radius="md">
      <Stack gap={6}>
        <Group gap={6}>
          {service.type && (
            <Badge color={paletteColor(service.type.color)} variant="light" tt="none" size="sm">
              {service.type.fdv}
            </Badge>
          )}
          {service.date_type === DateType.specific && service.interval_formatted && (
            <Group gap={4} c="dimmed" wrap="nowrap">
              <IconCalendarEvent size={14} stroke={1.6} />
              <Text size="xs">{service.interval_formatted}</Text>
            </Group>
          )}
        </Group>
        <Text size="sm" fw={600} lh={1.35}>
          {service.title}
        </Text>
        {service.sections.length > 0 && (
          <Select
            label="Секция"
            placeholder="Выберите секцию"
            withAsterisk
            data={service.sections.map((section) => {
              const free = Math.max(0, limit - section.participants_num);
              return { value: String(section.id), label: `${section.title} (свободных мест: ${free})`, disabled: free === 0 };
            })}
            value={value === null ? null : String(value)}
            onChange={(v) => onChange(v ? Number(v) : null)}
            allowDeselect={false}
            comboboxProps={{ withinPortal: true }}
          />
        )}
      </Stack>
    </Paper>
  );
}
