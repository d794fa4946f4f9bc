import { useState } from 'react';
import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { BankStatementMessages, type BankLine } from '@edu/domain/bank-statements/bank-statement';
import { formatRub } from '@edu/domain/common/format';
import { errorMessage, isApiError } from '../../../lib/api-client';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useIgnoreLine } from '../api/resolve-line';

/** «Пропустить»: the line is not a payment for entries; the reason goes to the change log. */
export function IgnoreLineModal({ line, onClose }: { line: BankLine | null; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const ignore = useIgnoreLine();
  const close = () => {
    setReason('');
    setError(null);
    onClose();
  };
  const submit = () => {
    if (!line) return;
    if (!reason.trim()) {
      setError(BankStatementMessages.reasonRequired);
      return;
    }
    ignore.mutate(
      { id: line.id, reason },
      {
        onSuccess: (answer) => {
          notifySuccess(answer.message);
          close();
        },
        onError: (err) => {
          if (isApiError(err) && err.status === 422) setError(err.errors?.reason?.[0] ?? err.message);
          else notifyError(errorMessage(err));
        },
      },
    );
  };
  return (
    <Modal opened={line !== null} onClose={close} title="Пропустить строку выписки" centered closeButtonProps={{ 'aria-label': 'Закрыть окно' }}>
      {line && (
        <Stack gap="md">
          <Text size="sm">
            Платёж № {line.doc_number} от {line.doc_date} на {formatRub(line.sum)} от «{line.payer_name}» не будет отнесён ни к одной заявке.
          </Text>
          <Textarea
            label="Причина"
            withAsterisk
            placeholder="Например: возврат займа, не оплата услуг"
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            error={error}
            autosize
            minRows={2}
            maxLength={500}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Отмена
            </Button>
            <Button color="gray" loading={ignore.isPending} onClick={submit}>
              Пропустить
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
