import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { IconUsers } from '@tabler/icons-react';
import { errorMessage } from '../../../lib/api-client';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useAnswerInvitation, useCoAuthorInvitations } from '../api/co-author-invitations';

/**
 * «Мои публикации»: invitations to co-author someone's publication. The publication becomes mine
 * only when I accept; declining leaves my name as plain text.
 */
export function CoAuthorInvitations() {
  const invitations = useCoAuthorInvitations();
  const answer = useAnswerInvitation();
  if (!invitations.data?.length) return null;

  const reply = (id: number, accept: boolean) =>
    answer.mutate(
      { id, accept },
      {
        onSuccess: (a) => notifySuccess(a.message),
        onError: (error) => notifyError(errorMessage(error)),
      },
    );

  return (
    <Stack gap="xs" data-testid="co-author-invitations">
      {invitations.data.map((inv) => (
        <Alert key={inv.publication_id} color="orange" variant="light" icon={<IconUsers size={18} />} title="Приглашение в соавторы">
          <Text size="sm" mb="xs" style={{ overflowWrap: 'anywhere' }}>
            {inv.inviter} указал(а) вас соавтором публикации «{inv.title}» под именем «{inv.fio}». Публикация появится в вашем списке, когда вы подтвердите
            участие.
          </Text>
          <Group gap="xs">
            <Button
              size="xs"
              onClick={() => reply(inv.publication_id, true)}
              loading={answer.isPending && answer.variables?.id === inv.publication_id && answer.variables.accept}
            >
              Принять
            </Button>
            <Button
              size="xs"
              variant="default"
              onClick={() => reply(inv.publication_id, false)}
              loading={answer.isPending && answer.variables?.id === inv.publication_id && !answer.variables.accept}
            >
              Отклонить
            </Button>
          </Group>
        </Alert>
      ))}
    </Stack>
  );
}
