import { Alert, Button, Group, Text } from '@mantine/core';
import { IconArrowBackUp, IconUserShare } from '@tabler/icons-react';
import type { CurrentUser } from '@edu/domain/users/current-user';
import { UserMessages } from '@edu/domain/users/manager-user';
import { errorMessage } from '../../../lib/api-client';
import { notifyError } from '../../../lib/notify';
import { useLeaveLoginAs } from '../api/login-as';

/** While an operator works as a user: 'Вы вошли как …' with the way back in one click. */
export function LoginAsBanner({ user }: { user: CurrentUser }) {
  const leave = useLeaveLoginAs();
  if (!user.impersonator) return null;
  return (
    <Alert color="orange" variant="filled" radius="md" mb="md" icon={<IconUserShare size={20} />} data-testid="login-as-banner" role="status">
      <Group justify="space-between" gap="sm">
        <Text size="sm" fw={500}>
          {UserMessages.loginAs(user.fio)}
          <Text span size="sm" fw={400}>
            {' '}
            (оператор: {user.impersonator.fio})
          </Text>
        </Text>
        <Button
          size="xs"
          variant="white"
          color="orange"
          leftSection={<IconArrowBackUp size={16} />}
          loading={leave.isPending}
          onClick={() => leave.mutate(undefined, { onError: (e) => notifyError(errorMessage(e)) })}
        >
          {UserMessages.backToOperator}
        </Button>
      </Group>
    </Alert>
  );
}
