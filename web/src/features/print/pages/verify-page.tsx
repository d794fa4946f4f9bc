import { useState, type FormEvent } from 'react';
import { Alert, Button, Group, Loader, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconCircleCheck, IconCircleX } from '@tabler/icons-react';
import { useNavigate, useParams } from 'react-router';
import { normaliseVerificationCode, VerificationMessages } from '@edu/domain/documents/verification';
import { errorMessage } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useVerifyDocument } from '../api/verify-document';

/**
 * /verify/:code: where the QR code of a printed certificate leads; works without logging in and shows
 * only what the paper shows (decision 039). /verify alone, and the foot of every answer, has a form
 * for typing the code printed under the QR code (a reader with the paper but no camera).
 */
export function VerifyPage() {
  useDocumentTitle('Проверка документа');
  const { code = '' } = useParams();
  const answer = useVerifyDocument(code);
  const doc = answer.data?.document;

  return (
    <Paper p={{ base: 'md', sm: 'xl' }} radius="lg" maw={640} mx="auto">
      <Stack gap="md">
        <Title order={1} size="h2">
          Проверка документа
        </Title>
        {code === '' ? (
          <Text>Введите код проверки, напечатанный на документе под QR-кодом, или отсканируйте QR-код камерой телефона.</Text>
        ) : (
          <Text size="sm" c="dimmed">
            Код проверки: <span data-testid="verify-code">{code}</span>
          </Text>
        )}
        {code === '' ? null : answer.isPending ? (
          <Loader aria-label="Проверяем документ" />
        ) : answer.isError ? (
          <Alert color="red" variant="light" role="alert">
            {errorMessage(answer.error)}
          </Alert>
        ) : answer.data.valid && doc ? (
          <>
            <Alert color="teal" variant="light" icon={<IconCircleCheck size={20} aria-hidden />} data-testid="verify-result" title={VerificationMessages.valid}>
              Документ выдан учебным центром и не отозван.
            </Alert>
            <Table variant="vertical" withTableBorder layout="fixed" data-testid="verify-document">
              <Table.Tbody>
                <Row label="Документ" value={doc.title} />
                <Row label="Кому выдан" value={doc.fio} />
                <Row label="Услуга" value={doc.service} />
                <Row label="Дата" value={doc.date} />
                {doc.number && <Row label="Номер" value={doc.number} />}
                {doc.centre && <Row label="Учебный центр" value={doc.centre} />}
              </Table.Tbody>
            </Table>
          </>
        ) : (
          <Alert color="red" variant="light" icon={<IconCircleX size={20} aria-hidden />} data-testid="verify-result" title={VerificationMessages.invalid}>
            Проверьте код на документе. Если он введён верно, документ не выдавался учебным центром или был отозван.
          </Alert>
        )}
        <CodeForm key={code} again={code !== ''} />
      </Stack>
    </Paper>
  );
}

function CodeForm({ again }: { again: boolean }) {
  const navigate = useNavigate();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);

  function submit(event: FormEvent) {
    event.preventDefault();
    const code = normaliseVerificationCode(text);
    if (!code) return setError(VerificationMessages.codeFormat);
    setError(null);
    void navigate(`/verify/${code}`);
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Проверить код">
      <Group align="flex-start" gap="sm" wrap="wrap">
        <TextInput
          label={again ? 'Проверить другой код' : 'Код проверки'}
          placeholder="Например, 4C7K9XQM3TAF"
          value={text}
          onChange={(e) => setText(e.currentTarget.value)}
          error={error}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          maxLength={20}
          style={{ flex: '1 1 14rem' }}
        />
        <Button type="submit" mt={{ base: 0, xs: 25 }}>
          Проверить
        </Button>
      </Group>
    </form>
  );
}

function Row({ label, value }: { label: string; value: string }) {
  return (
    <Table.Tr>
      <Table.Th w={{ base: 110, sm: 160 }}>{label}</Table.Th>
      <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
    </Table.Tr>
  );
}
