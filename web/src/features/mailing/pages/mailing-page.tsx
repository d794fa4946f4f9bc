import { useState } from 'react';
import { Button, Group, Modal, Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { MailingMessages } from '@edu/domain/mailing/mailing';
import { RichTextEditor } from '../../../components/rich-text-editor';
import { errorMessage } from '../../../lib/api-client';
import { fieldErrorsOf } from '../../../lib/field-errors';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useMailings } from '../api/get-mailings';
import { useSendAll } from '../api/send-all';
import { MailingProgressCard } from '../components/mailing-progress-card';

const isEmpty = (html: string) => !html.replace(/<[^>]*>/g, '').replace(/&nbsp;/g, ' ').trim();

/**
 * /manager/mailing 'Рассылка для всех пользователей' (spec 03 §2): a rich-text message and
 * 'Отправить'. Below, the progress of the mailings, read from the server: leaving the page and
 * coming back shows where they are.
 */
export function MailingPage() {
  useDocumentTitle(MailingMessages.title);
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const send = useSendAll();
  const mailings = useMailings();

  function ask() {
    if (isEmpty(message)) {
      setError(MailingMessages.empty);
      return;
    }
    setError(null);
    setConfirming(true);
  }

  async function submit() {
    try {
      const answer = await send.mutateAsync(message);
      notifySuccess(answer.message || MailingMessages.sent);
      setMessage('');
    } catch (e) {
      setError(fieldErrorsOf(e).message ?? null);
      notifyError(errorMessage(e));
    } finally {
      setConfirming(false);
    }
  }

  return (
    <Stack gap="lg" maw={1000}>
      <Title order={2}>{MailingMessages.title}</Title>
      <Paper p="lg" radius="lg">
        <Stack gap="md">
          <RichTextEditor label="Текст письма" ariaLabel="Текст письма" value={message} onChange={setMessage} error={error} minHeight={240} />
          <Text size="xs" c="dimmed">
            Письмо получат все пользователи с электронной почтой, кроме отписавшихся, удалённых и гостей. В каждое письмо добавляется ссылка для отписки.
          </Text>
          <Group justify="flex-end">
            <Button leftSection={<IconSend size={16} />} onClick={ask} loading={send.isPending}>
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
          <Text>Отправить письмо всем пользователям?</Text>
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
    </Stack>
  );
}
