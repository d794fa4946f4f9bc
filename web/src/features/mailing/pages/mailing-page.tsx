import { useState } from 'react';
import { Badge, Box, Button, Group, Modal, Paper, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconEye, IconMailForward, IconSend, IconUsers } from '@tabler/icons-react';
import { MailingMessages, type LetterPreview, type MailingAudience } from '@edu/domain/mailing/mailing';
import { RichTextEditor } from '../../../components/rich-text-editor';
import { errorMessage } from '../../../lib/api-client';
import { fieldErrorsOf } from '../../../lib/field-errors';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useAudienceCount } from '../api/get-audience-count';
import { useMailings } from '../api/get-mailings';
import { useSendAll } from '../api/send-all';
import { usePreviewLetter, useSendTestLetter } from '../api/test-letter';
import { AudienceFields } from '../components/audience-fields';
import { MailingProgressCard } from '../components/mailing-progress-card';
import { focusFirstInvalid } from '../../../lib/focus-invalid';

const isEmpty = (html: string) =>
  !html
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .trim();

/**
 * /manager/mailing 'Рассылка для всех пользователей' (spec 03 §2): subject, audience (everyone, or by
 * profile, region, St Petersburg, services, service types and entry status) with the recipient count,
 * a rich-text message, a preview, a test letter to oneself and 'Отправить'. Below, the progress of
 * the mailings, read from the server: leaving the page and coming back shows where they are.
 */
export function MailingPage() {
  useDocumentTitle(MailingMessages.title);
  const [subject, setSubject] = useState<string>(MailingMessages.subject);
  const [audience, setAudience] = useState<MailingAudience>({});
  const [message, setMessage] = useState('');
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [confirming, setConfirming] = useState(false);
  const [preview, setPreview] = useState<LetterPreview | null>(null);
  const send = useSendAll();
  const previewLetter = usePreviewLetter();
  const testLetter = useSendTestLetter();
  const count = useAudienceCount(audience);
  const mailings = useMailings();
  const recipients = count.data?.count;

  /** The letter's own checks, before any call: a subject and a text. */
  function letterProblems(): boolean {
    const next = { subject: subject.trim() ? undefined : MailingMessages.subjectEmpty, message: isEmpty(message) ? MailingMessages.empty : undefined };
    setErrors(next);
    if (next.subject || next.message) focusFirstInvalid();
    return Boolean(next.subject || next.message);
  }

  function failed(e: unknown) {
    const fields = fieldErrorsOf(e);
    setErrors({ subject: fields.subject, message: fields.message, audience: fields.audience });
    focusFirstInvalid();
    notifyError(errorMessage(e));
  }

  async function submit() {
    try {
      const answer = await send.mutateAsync({ message, subject, audience });
      notifySuccess(answer.message || MailingMessages.sent);
      setMessage('');
    } catch (e) {
      failed(e);
    } finally {
      setConfirming(false);
    }
  }

  async function showPreview() {
    if (letterProblems()) return;
    try {
      setPreview(await previewLetter.mutateAsync({ message, subject }));
    } catch (e) {
      failed(e);
    }
  }

  async function sendTest() {
    if (letterProblems()) return;
    try {
      notifySuccess((await testLetter.mutateAsync({ message, subject })).message);
    } catch (e) {
      failed(e);
    }
  }

  return (
    <Stack gap="lg" maw={1000}>
      <Title order={2}>{MailingMessages.title}</Title>
      <Paper p="lg" radius="lg">
        <Stack gap="md">
          <TextInput
            label={MailingMessages.subjectLabel}
            value={subject}
            onChange={(e) => setSubject(e.currentTarget.value)}
            error={errors.subject}
            maxLength={255}
            required
          />
          <Stack gap={6}>
            <Text fw={500} size="sm">
              {MailingMessages.audience}
            </Text>
            <AudienceFields value={audience} onChange={setAudience} />
            <Group gap="xs" wrap="wrap" data-testid="mailing-recipients">
              <Badge size="lg" variant="light" color={recipients === 0 ? 'red' : 'indigo'} leftSection={<IconUsers size={14} />} tt="none">
                {recipients === undefined ? 'Считаем получателей…' : MailingMessages.recipients(recipients)}
              </Badge>
              {count.data && (
                <Text size="xs" c="dimmed">
                  {count.data.label}
                </Text>
              )}
            </Group>
            {(recipients === 0 || errors.audience) && (
              <Text size="sm" c="red.7">
                {errors.audience ?? MailingMessages.noRecipients}
              </Text>
            )}
          </Stack>
          <RichTextEditor label="Текст письма" ariaLabel="Текст письма" value={message} onChange={setMessage} error={errors.message} minHeight={240} />
          <Text size="xs" c="dimmed">
            Отписавшиеся, удалённые пользователи и гости писем не получают. В каждое письмо добавляется ссылка для отписки.
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" leftSection={<IconEye size={16} />} onClick={() => void showPreview()} loading={previewLetter.isPending}>
              {MailingMessages.preview}
            </Button>
            <Button variant="default" leftSection={<IconMailForward size={16} />} onClick={() => void sendTest()} loading={testLetter.isPending}>
              {MailingMessages.sendTest}
            </Button>
            <Button
              leftSection={<IconSend size={16} />}
              onClick={() => !letterProblems() && setConfirming(true)}
              loading={send.isPending}
              disabled={recipients === 0}
            >
              {MailingMessages.send}
            </Button>
          </Group>
        </Stack>
      </Paper>

      <Stack gap="sm">
        <Title order={3} size="h4">
          {MailingMessages.progress}
        </Title>
        {mailings.isPending ? (
          <Skeleton h={160} radius="lg" />
        ) : mailings.isError ? (
          <Text c="red.7">{errorMessage(mailings.error)}</Text>
        ) : (mailings.data ?? []).length === 0 ? (
          <Paper p="lg" radius="lg">
            <Text c="dimmed">Рассылок ещё не было.</Text>
          </Paper>
        ) : (
          mailings.data.map((m) => <MailingProgressCard key={m.id} mailing={m} />)
        )}
      </Stack>

      <Modal opened={confirming} onClose={() => setConfirming(false)} title={MailingMessages.title} centered>
        <Stack gap="md">
          <Text>{MailingMessages.confirm(recipients ?? 0)}</Text>
          <Text size="sm">
            <b>{MailingMessages.subjectLabel}:</b> {subject}
          </Text>
          <Text size="sm" c="dimmed">
            {count.data?.label}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setConfirming(false)}>
              Отмена
            </Button>
            <Button onClick={() => void submit()} loading={send.isPending}>
              {MailingMessages.send}
            </Button>
          </Group>
        </Stack>
      </Modal>

      <Modal opened={preview !== null} onClose={() => setPreview(null)} title={MailingMessages.preview} size="lg" centered>
        {preview && (
          <Stack gap="sm">
            <Text size="sm">
              <b>{MailingMessages.subjectLabel}:</b> {preview.subject}
            </Text>
            {/* The letter as sent, in a sandbox: no scripts, no navigation from the operator's page. */}
            <Box
              component="iframe"
              title={MailingMessages.preview}
              sandbox=""
              srcDoc={preview.html}
              w="100%"
              h={420}
              style={{ border: '1px solid var(--mantine-color-gray-3)', borderRadius: 8, background: '#fff' }}
              data-testid="mailing-preview"
            />
          </Stack>
        )}
      </Modal>
    </Stack>
  );
}
