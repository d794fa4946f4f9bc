import { useState } from 'react';
import {
  Badge,
  Button,
  Center,
  Group,
  Input,
  Loader,
  Modal,
  NumberInput,
  Pagination,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { IMaskInput } from 'react-imask';
import { PayType, payTypeLabels, type PayTypeCode } from '@edu/domain/common/codes';
import type { Entry } from '@edu/domain/entries/entry';
import { EntryAdminMessages } from '@edu/domain/entries/entry-admin';
import { impersonatorLabel } from '@edu/domain/logs/log';
import { errorMessage } from '../../../lib/api-client';
import { fieldErrorsOf } from '../../../lib/field-errors';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useCompleteEntry, useEntryHistory, useRestoreEntry, useSaveMember } from '../api/manage-entry';
import { MarkPaidModal } from './mark-paid-modal';
import { usePayNow } from './use-pay-now';
import { useUpdateEntry } from '../api/update-entry';
import { FormProblem, ParticipationField } from './entry-choice-fields';
import { EntryServiceModal } from './entry-service-modal';
import { SectionChoice } from './section-choice';
import { focusFirstInvalid } from '../../../lib/focus-invalid';
import { IssuedDocuments } from './issued-documents';

const ALL_PAY_TYPES = ([PayType.bank, PayType.office, PayType.online, PayType.other] as PayTypeCode[]).map((v) => ({
  value: String(v),
  label: payTypeLabels[v],
}));

/** Edit entry (operators): price, pay type, certificate number (12 digits), section, participation. */
export function OperatorEditModal({ entry, onClose }: { entry: Entry | null; onClose: () => void }) {
  return (
    <EntryServiceModal entry={entry} onClose={onClose} testId="operator-entry-modal">
      {(e, service) => (
        <Stack gap="lg">
          <OperatorEditForm
            key={e.id}
            entry={e}
            sections={service.sections}
            maxParticipants={service.max_participants}
            participationType={service.participation_type}
            onClose={onClose}
          />
          <IssuedDocuments entryId={e.id} />
        </Stack>
      )}
    </EntryServiceModal>
  );
}

function OperatorEditForm({
  entry,
  sections,
  maxParticipants,
  participationType,
  onClose,
}: {
  entry: Entry;
  sections: Array<{ id: number; title: string; service_id: number; participants_num: number }>;
  maxParticipants: number;
  participationType: number;
  onClose: () => void;
}) {
  const update = useUpdateEntry();
  const [price, setPrice] = useState<number | string>(entry.price);
  const [payType, setPayType] = useState(String(entry.pay_type));
  const [certificate, setCertificate] = useState(entry.certificate_number ?? '');
  const [section, setSection] = useState<string | null>(entry.section_id ? String(entry.section_id) : null);
  const [extramural, setExtramural] = useState(String(entry.is_extramural));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);

  async function save() {
    setErrors({});
    setProblem(null);
    try {
      const answer = await update.mutateAsync({
        id: entry.id,
        price: Number(price || 0),
        pay_type: Number(payType),
        certificate_number: certificate.replace(/\D/g, '') || null,
        ...(sections.length ? { section_id: section ? Number(section) : null } : {}),
        is_extramural: extramural === '1' ? 1 : 0,
      });
      notifySuccess(answer.message);
      onClose();
    } catch (error) {
      const fields = fieldErrorsOf(error);
      setErrors(fields);
      focusFirstInvalid();
      if (Object.keys(fields).length === 0) setProblem(errorMessage(error));
      else notifyError(errorMessage(error));
    }
  }

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {entry.user.fio} · {entry.service.title}
      </Text>
      <NumberInput label="Цена, ₽" min={0} decimalScale={2} thousandSeparator=" " value={price} onChange={setPrice} error={errors.price} />
      <Input.Wrapper label="Тип оплаты" error={errors.pay_type}>
        <div>
          <SegmentedControl mt={6} value={payType} onChange={setPayType} data={ALL_PAY_TYPES} aria-label="Тип оплаты" />
        </div>
      </Input.Wrapper>
      <Input.Wrapper label="Номер сертификата" description="12 цифр" error={errors.certificate_number}>
        <Input
          component={IMaskInput}
          mask="000000000000"
          value={certificate}
          onAccept={(v: string) => setCertificate(v)}
          placeholder="000000000000"
          inputMode="numeric"
          aria-label="Номер сертификата"
        />
      </Input.Wrapper>
      {sections.length > 0 && (
        <SectionChoice
          sections={sections}
          maxParticipants={maxParticipants}
          value={section}
          onChange={setSection}
          error={errors.section_id || null}
          currentId={entry.section_id}
        />
      )}
      <ParticipationField participationType={participationType} value={extramural} onChange={setExtramural} error={errors.is_extramural} />
      <FormProblem problem={problem} />
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose}>
          Отмена
        </Button>
        <Button onClick={() => void save()} loading={update.isPending} disabled={certificate.length > 0 && certificate.replace(/\D/g, '').length !== 12}>
          Сохранить
        </Button>
      </Group>
    </Stack>
  );
}

/** Competition participant of a contest entry: fio, title, comment, all required. */
export function MemberModal({ entry, onClose }: { entry: Entry | null; onClose: () => void }) {
  return (
    <Modal opened={entry !== null} onClose={onClose} title="Участник конкурса" size="lg">
      {entry && <MemberForm key={entry.id} entry={entry} onClose={onClose} />}
    </Modal>
  );
}

function MemberForm({ entry, onClose }: { entry: Entry; onClose: () => void }) {
  const save = useSaveMember();
  const [fio, setFio] = useState(entry.competition_member?.fio ?? '');
  const [title, setTitle] = useState(entry.competition_member?.title ?? '');
  const [comment, setComment] = useState(entry.competition_member?.comment ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [problem, setProblem] = useState<string | null>(null);
  return (
    <Stack gap="md">
      <TextInput label="ФИО участника" required value={fio} onChange={(e) => setFio(e.currentTarget.value)} error={errors.fio} />
      <TextInput label="Название работы" required value={title} onChange={(e) => setTitle(e.currentTarget.value)} error={errors.title} />
      <Textarea label="Комментарий" required autosize minRows={3} value={comment} onChange={(e) => setComment(e.currentTarget.value)} error={errors.comment} />
      <FormProblem problem={problem} />
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose}>
          Отмена
        </Button>
        <Button
          loading={save.isPending}
          onClick={async () => {
            setErrors({});
            setProblem(null);
            try {
              notifySuccess((await save.mutateAsync({ entry_id: entry.id, fio, title, comment })).message);
              onClose();
            } catch (error) {
              const fields = fieldErrorsOf(error);
              setErrors(fields);
              focusFirstInvalid();
              if (Object.keys(fields).length === 0) setProblem(errorMessage(error));
            }
          }}
        >
          Сохранить
        </Button>
      </Group>
    </Stack>
  );
}

/** History: the change log of one entry, newest first; 'Система' when no user acted. */
export function HistoryModal({ entry, onClose }: { entry: Entry | null; onClose: () => void }) {
  const [page, setPage] = useState(1);
  const history = useEntryHistory(entry?.id ?? null, page);
  return (
    <Modal opened={entry !== null} onClose={onClose} title={entry ? `История заявки № ${entry.number}` : ''} size="xl" data-testid="entry-history-modal">
      {history.isPending ? (
        <Center py="xl">
          <Loader type="dots" />
        </Center>
      ) : history.isError ? (
        <FormProblem problem={errorMessage(history.error)} />
      ) : history.data.data.length === 0 ? (
        <Text c="dimmed">Изменений нет</Text>
      ) : (
        <Stack gap="sm">
          <Table.ScrollContainer minWidth={560}>
            <Table verticalSpacing="xs" data-testid="entry-history">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Время</Table.Th>
                  <Table.Th>Пользователь</Table.Th>
                  <Table.Th>Изменения</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {history.data.data.map((row) => (
                  <Table.Tr key={row.id} data-testid="history-row">
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{row.created_at}</Table.Td>
                    <Table.Td>
                      {row.user}
                      {row.impersonator && (
                        <Text size="xs" c="orange.8">
                          {impersonatorLabel(row.impersonator)}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      <Stack gap={2}>
                        {row.changes.map((c) => (
                          <Text key={c.field} size="xs" style={{ overflowWrap: 'anywhere' }}>
                            <Text span size="xs" fw={600}>
                              {c.label}:
                            </Text>{' '}
                            {c.old} → <b>{c.new}</b>
                          </Text>
                        ))}
                      </Stack>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {history.data.meta.last_page > 1 && <Pagination total={history.data.meta.last_page} value={page} onChange={setPage} size="sm" />}
        </Stack>
      )}
    </Modal>
  );
}

/** Pay (operators, the entry's menu): the same confirmation as the row's «Отметить оплату» button. */
export function OperatorPayModal({ entry, onClose }: { entry: Entry | null; onClose: () => void }) {
  const pay = usePayNow();
  if (!entry) return null;
  return (
    <MarkPaidModal
      entry={{ id: entry.id, number: entry.number, price: entry.price, user: entry.user, pay_type: entry.pay_type }}
      opened
      pending={pay.pending}
      onClose={onClose}
      onConfirm={async (payType) => {
        await pay.start(entry.id, payType);
        onClose();
      }}
    />
  );
}

/** Complete a paid entry after the confirmation (spec 02 §4). */
export function CompleteModal({ entry, onClose }: { entry: Entry | null; onClose: () => void }) {
  const complete = useCompleteEntry();
  return (
    <Modal opened={entry !== null} onClose={onClose} title="Завершение заявки" size="sm" centered>
      <Text size="sm" mb="lg">
        {EntryAdminMessages.completeConfirm}
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Нет
        </Button>
        <Button
          color="grape"
          loading={complete.isPending}
          onClick={async () => {
            if (!entry) return;
            try {
              notifySuccess((await complete.mutateAsync(entry.id)).message);
              onClose();
            } catch (error) {
              notifyError(errorMessage(error));
            }
          }}
        >
          Да
        </Button>
      </Group>
    </Modal>
  );
}

/** Restore a deleted entry. */
export function RestoreModal({ entry, onClose }: { entry: Entry | null; onClose: () => void }) {
  const restore = useRestoreEntry();
  return (
    <Modal opened={entry !== null} onClose={onClose} title="Восстановить заявку?" size="sm" centered>
      {entry && (
        <Text size="sm">
          Заявка № {entry.number} на «{entry.service.title}» снова станет действующей{' '}
          <Badge size="sm" color={entry.statusColor} variant="light" tt="none">
            {entry.statusLabel}
          </Badge>
        </Text>
      )}
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={onClose}>
          Отмена
        </Button>
        <Button
          loading={restore.isPending}
          onClick={async () => {
            if (!entry) return;
            try {
              notifySuccess((await restore.mutateAsync(entry.id)).message);
              onClose();
            } catch (error) {
              notifyError(errorMessage(error));
            }
          }}
        >
          Восстановить
        </Button>
      </Group>
    </Modal>
  );
}
