import { useState } from 'react';
import { Badge, Box, Button, Grid, Group, Modal, Paper, Select, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconEye, IconMailForward, IconSend, IconUsers } from '@tabler/icons-react';
import { isMailingMacro, MailingMessages, type LetterPreview, type MailingAudience } from '@edu/domain/mailing/mailing';
import { MacroPanel } from '../../../components/macro-panel';
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
import { useNarrow } from '../../../lib/use-narrow';

const isEmpty = (html: string) =>
  !html
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .trim();

/**
 * /manager/mailing (spec 03 §2), titled by its audience ('Рассылка: 2 получателя'): subject, audience
 * (everyone, or by profile, region, St Petersburg, services, service types and entry status) with the
 * recipient count, a rich-text message with the macro panel the event templates have (only the
 * macros a mass letter fills), a preview and a test letter with a recipient's real values, and
 * 'Отправить'. Below, the progress of the mailings, read from the server: leaving the page and
 * coming back shows where they are.
 */
export function MailingPage() {
  const narrow = useNarrow();
  const [subject, setSubject] = useState('');
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
  const title = recipients === undefined ? MailingMessages.titleCounting : MailingMessages.titleFor(recipients);
  useDocumentTitle(title);

  const changeMessage = (html: string) => {
    setMessage(html);
    if (errors.message) setErrors((er) => ({ ...er, message: undefined }));
  };

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

  /**
   * Whose values fill the macros of the preview and the test letter: the recipient chosen in the
   * preview (while they are still in the audience), else the audience's first.
   */
  const [lookAt, setLookAt] = useState<number | undefined>();

  /** Runs a letter call for the recipient looked at; when they have left the audience, for the first one. */
  async function withRecipient<T>(call: (userId: number | undefined) => Promise<T>, userId = lookAt): Promise<T> {
    try {
      return await call(userId);
    } catch (e) {
      if (userId === undefined || !fieldErrorsOf(e).user_id) throw e;
      setLookAt(undefined);
      return call(undefined);
    }
  }

  async function showPreview(userId = lookAt) {
    if (letterProblems()) return;
    try {
      const shown = await withRecipient((id) => previewLetter.mutateAsync({ message, subject, audience, user_id: id }), userId);
      setLookAt(shown.recipient?.id);
      setPreview(shown);
    } catch (e) {
      failed(e);
    }
  }

  async function sendTest() {
    if (letterProblems()) return;
    try {
      notifySuccess((await withRecipient((id) => testLetter.mutateAsync({ message, subject, audience, user_id: id }))).message);
    } catch (e) {
      failed(e);
    }
  }

  return (
    <Stack gap="lg" maw={1200}>
      <Title order={2} data-testid="mailing-title">
        {title}
      </Title>
      <Paper p="lg" radius="lg">
        <Stack gap="md">
          <TextInput
            label={MailingMessages.subjectLabel}
            value={subject}
            onChange={(e) => {
              setSubject(e.currentTarget.value);
              if (errors.subject) setErrors((er) => ({ ...er, subject: undefined }));
            }}
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
          <Grid gap="lg">
            <Grid.Col span={{ base: 12, md: 4 }} order={{ base: 2, md: 1 }}>
              <MacroPanel include={isMailingMacro} height={narrow ? 260 : 300} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 8 }} order={{ base: 1, md: 2 }}>
              <Stack gap={6}>
                <RichTextEditor label="Текст письма" ariaLabel="Текст письма" value={message} onChange={changeMessage} error={errors.message} minHeight={240} />
                <Text size="xs" c="dimmed">
                  {MailingMessages.macrosHint}
                </Text>
              </Stack>
            </Grid.Col>
          </Grid>
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

      <Modal opened={confirming} onClose={() => setConfirming(false)} title={title} centered>
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
            {preview.recipient ? (
              <Select
                label={MailingMessages.previewFor}
                data={[preview.recipient, ...preview.recipients.filter((r) => r.id !== preview.recipient?.id)].map((r) => ({
                  value: String(r.id),
                  label: r.label,
                }))}
                value={String(preview.recipient.id)}
                onChange={(v) => v && void showPreview(Number(v))}
                allowDeselect={false}
                searchable
                disabled={previewLetter.isPending}
                data-testid="mailing-preview-recipient"
              />
            ) : (
              <Text size="sm" c="dimmed">
                {MailingMessages.previewNobody}
              </Text>
            )}
            <Text size="sm" data-testid="mailing-preview-subject">
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
