import { useEffect, useRef } from 'react';
import { Alert, Button, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { IconMailOff } from '@tabler/icons-react';
import { Link, useParams } from 'react-router';
import { MailingMessages } from '@edu/domain/mailing/mailing';
import { errorMessage } from '../../../lib/api-client';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useUnsubscribe } from '../api/unsubscribe';

/** /unsubscribe/:token: the link at the foot of every mass letter; works without logging in. */
export function UnsubscribePage() {
  useDocumentTitle(MailingMessages.unsubscribe);
  const { token = '' } = useParams();
  const unsubscribe = useUnsubscribe();
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    unsubscribe.mutate(token);
  }, [token, unsubscribe]);

  return (
    <Paper p="xl" radius="lg" maw={560} mx="auto">
      <Stack gap="md" align="flex-start">
        <Title order={2}>{MailingMessages.unsubscribe}</Title>
        {unsubscribe.isPending || unsubscribe.isIdle ? (
          <Loader />
        ) : unsubscribe.isError ? (
          <Alert color="red" variant="light" w="100%">
            {errorMessage(unsubscribe.error)}
          </Alert>
        ) : (
          <Alert color="teal" variant="light" icon={<IconMailOff size={18} />} w="100%" data-testid="unsubscribed">
            {unsubscribe.data?.message ?? MailingMessages.unsubscribed}
          </Alert>
        )}
        <Text size="sm" c="dimmed">
          Подписку можно вернуть в настройках личного кабинета.
        </Text>
        <Button component={Link} to="/login" variant="light">
          Войти в личный кабинет
        </Button>
      </Stack>
    </Paper>
  );
}
