import { useState } from 'react';
import { Anchor, Badge, Button, Group, Stack, Text, Textarea, Title } from '@mantine/core';
import { formatDate } from '@edu/domain/common/format';
import type { IssuedDocument } from '@edu/domain/documents/verification';
import { errorMessage } from '../../../lib/api-client';
import { fieldErrorsOf } from '../../../lib/field-errors';
import { notifySuccess } from '../../../lib/notify';
import { useIssuedDocuments, useRevokeIssuedDocument } from '../api/issued-documents';

/** The entry's printed documents with their verification codes; an operator revokes one with a reason (decision 039). */
export function IssuedDocuments({ entryId }: { entryId: number }) {
  const list = useIssuedDocuments(entryId);
  if (list.isPending || list.isError) return null;
  return (
    <Stack gap="xs" data-testid="issued-documents">
      <Title order={3} size="h5">
        Выданные документы
      </Title>
      {list.data.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          Документы по заявке ещё не печатались.
        </Text>
      ) : (
        list.data.data.map((doc) => <IssuedDocumentRow key={doc.id} doc={doc} entryId={entryId} />)
      )}
    </Stack>
  );
}

function IssuedDocumentRow({ doc, entryId }: { doc: IssuedDocument; entryId: number }) {
  const revoke = useRevokeIssuedDocument(entryId);
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function submit() {
    setError(null);
    try {
      const answer = await revoke.mutateAsync({ id: doc.id, reason });
      notifySuccess(answer.message);
      setOpen(false);
    } catch (err) {
      setError(fieldErrorsOf(err).reason ?? errorMessage(err));
    }
  }

  return (
    <Stack gap={6} p="sm" style={{ border: '1px solid var(--mantine-color-gray-3)', borderRadius: 8 }} data-testid="issued-document">
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Text size="sm" fw={500}>
          {doc.kind_label}
        </Text>
        {doc.revoked_at ? (
          <Badge color="red" variant="light">
            Отозван {formatDate(doc.revoked_at)}
          </Badge>
        ) : (
          <Badge color="teal" variant="light">
            Действителен
          </Badge>
        )}
      </Group>
      <Text size="sm">
        Код проверки:{' '}
        <Anchor href={doc.url} target="_blank" rel="noreferrer" ff="monospace" data-testid="issued-document-code">
          {doc.code}
        </Anchor>{' '}
        · выдан {formatDate(doc.issued_at)}
      </Text>
      {doc.revoked_reason && (
        <Text size="sm" c="dimmed">
          Причина отзыва: {doc.revoked_reason}
        </Text>
      )}
      {!doc.revoked_at &&
        (open ? (
          <Stack gap="xs">
            <Textarea label="Причина отзыва" required autosize minRows={2} value={reason} onChange={(e) => setReason(e.currentTarget.value)} error={error} />
            <Group justify="flex-end" gap="xs">
              <Button variant="default" size="xs" onClick={() => setOpen(false)}>
                Отмена
              </Button>
              <Button color="red" size="xs" loading={revoke.isPending} onClick={() => void submit()}>
                Отозвать документ
              </Button>
            </Group>
          </Stack>
        ) : (
          <Group justify="flex-end">
            <Button variant="subtle" color="red" size="xs" onClick={() => setOpen(true)}>
              Отозвать…
            </Button>
          </Group>
        ))}
    </Stack>
  );
}
