import { useState } from 'react';
import { Alert, Button, Divider, Group, Modal, Skeleton, Stack, Text, Textarea } from '@mantine/core';
import { formatDateTime } from '@edu/domain/common/format';
import { eraseUserBody, isExportRunning, PersonalDataMessages } from '@edu/domain/personal-data/personal-data';
import { errorMessage, isApiError } from '../../../lib/api-client';
import { firstErrors } from '../../../lib/field-errors';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useClientPersonalData, useEraseClient, usePrepareClientExport } from '../api/client-personal-data';
import { ExportState } from './export-state';

/** The erasure's confirmation: what goes, what stays, and the written request it rests on (required). */
function EraseModal({ userId, opened, onClose }: { userId: number; opened: boolean; onClose: () => void }) {
  const erase = useEraseClient(userId);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function confirm() {
    const parsed = eraseUserBody.safeParse({ reason });
    if (!parsed.success) {
      setError(PersonalDataMessages.reasonRequired);
      return;
    }
    try {
      const answer = await erase.mutateAsync(parsed.data);
      notifySuccess(answer.message);
      setReason('');
      onClose();
    } catch (e) {
      if (isApiError(e)) setError(firstErrors(e.errors).reason ?? errorMessage(e));
      notifyError(errorMessage(e));
    }
  }

  return (
    <Modal opened={opened} onClose={onClose} title="Удалить данные клиента" centered size="md">
      <Stack gap="sm">
        <Text size="sm">
          ФИО, e-mail, телефон, адрес, паспорт, СНИЛС, дата рождения, аватар и загруженные документы будут удалены безвозвратно, сеансы завершены, вход станет
          невозможен. Заявки, оплаты, возвраты и договоры с суммами останутся для бухгалтерского учёта — под именем «Удалённый пользователь».
        </Text>
        <Textarea
          label="Основание"
          description="Например: заявление клиента № 17 от 20.11.2026"
          withAsterisk
          autosize
          minRows={2}
          maxLength={500}
          value={reason}
          error={error}
          onChange={(e) => {
            setReason(e.currentTarget.value);
            setError(null);
          }}
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Отмена
          </Button>
          <Button color="red" loading={erase.isPending} onClick={() => void confirm()}>
            Удалить данные
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** In the operator's user card: the client's archive on a written request, and erasure on request (issue 33). */
export function ClientDataActions({ userId }: { userId: number }) {
  const state = useClientPersonalData(userId);
  const prepare = usePrepareClientExport(userId);
  const [erasing, setErasing] = useState(false);
  const data = state.data;

  async function prepareArchive() {
    try {
      notifySuccess((await prepare.mutateAsync()).message);
    } catch (error) {
      notifyError(errorMessage(error));
    }
  }

  return (
    <Stack gap="sm" data-testid="client-personal-data">
      <Divider label="Персональные данные (152-ФЗ)" labelPosition="left" />
      {!data ? (
        <Skeleton h={36} />
      ) : data.erased_at ? (
        <Alert color="gray" title="Данные клиента удалены">
          {formatDateTime(data.erased_at)}. Заявки и оплаты сохранены под именем «Удалённый пользователь».
        </Alert>
      ) : (
        <>
          {data.export && <ExportState value={data.export} />}
          <Group gap="sm">
            <Button
              variant="light"
              onClick={() => void prepareArchive()}
              loading={prepare.isPending}
              disabled={Boolean(data.export && isExportRunning(data.export.status))}
            >
              Подготовить архив данных
            </Button>
            {!data.is_operator && (
              <Button variant="outline" color="red" onClick={() => setErasing(true)}>
                Удалить данные клиента
              </Button>
            )}
          </Group>
          {data.is_operator && (
            <Text size="xs" c="dimmed">
              {PersonalDataMessages.noEraseOperator}
            </Text>
          )}
          <EraseModal userId={userId} opened={erasing} onClose={() => setErasing(false)} />
        </>
      )}
    </Stack>
  );
}
