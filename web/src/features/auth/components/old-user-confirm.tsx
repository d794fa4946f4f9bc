import { useState } from 'react';
import { Alert, Anchor, Avatar, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { Messages } from '@edu/domain/common/messages';
import { errorMessage } from '../../../lib/api-client';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { usePasswordForgot } from '../api/password-forgot';
import { dropOldUser, type KeptOldUser } from '../old-user-store';

/** 'Это ваш аккаунт?': the account found by the registration data (spec 01 §2, confirmation page). */
export function OldUserConfirm({ kept }: { kept: KeptOldUser }) {
  const navigate = useNavigate();
  const forgot = usePasswordForgot();
  const [sent, setSent] = useState(false);
  const { user } = kept;
  const initials = user.fio
    .split(/\s+/)
    .slice(0, 2)
    .map((part) => part.charAt(0))
    .join('')
    .toUpperCase();

  async function sendPassword() {
    try {
      await forgot.mutateAsync(kept.matchedBy === 'phone' && kept.phone ? { phone: kept.phone } : { email: kept.email });
      notifySuccess(Messages.passwordSent);
      setSent(true);
    } catch (error) {
      notifyError(errorMessage(error));
    }
  }

  function backToRegistration() {
    dropOldUser();
    // Fire-and-forget: nothing waits on the route transition.
    void navigate('/register');
  }

  return (
    <Paper maw={520} mx="auto" p={{ base: 'lg', sm: 32 }} radius="lg" shadow="sm">
      <Stack gap="lg">
        <div>
          <Title order={1} size="h2">
            Это ваш аккаунт?
          </Title>
          <Text c="dimmed" size="sm" mt={4}>
            Пользователь с такими данными уже зарегистрирован. Если это вы, получите новый пароль и войдите.
          </Text>
        </div>

        <Paper p="md" radius="md" bg="gray.0" data-testid="old-user">
          <Group wrap="nowrap" align="flex-start">
            <Avatar color="indigo" radius="xl" size={48}>
              {initials}
            </Avatar>
            <Stack gap={2}>
              <Text fw={600}>{user.fio}</Text>
              <Text size="sm">E-mail: {user.email}</Text>
              {user.phone && <Text size="sm">Телефон: {user.phone}</Text>}
              <Text size="sm" c="dimmed">
                Зарегистрирован {user.created_at_formatted}
              </Text>
            </Stack>
          </Group>
        </Paper>

        {sent && (
          <Alert color="teal" variant="light" icon={<IconMailCheck size={20} />} title="Письмо отправлено">
            <Text size="sm">Проверьте почту и войдите с новым паролем.</Text>
            <Anchor component={Link} to="/login" size="sm" fw={600}>
              Перейти ко входу
            </Anchor>
          </Alert>
        )}

        <Stack gap="sm">
          <Button size="md" onClick={sendPassword} loading={forgot.isPending} disabled={sent}>
            Да, отправить новый пароль
          </Button>
          <Button size="md" variant="default" onClick={backToRegistration}>
            Нет, вернуться к регистрации
          </Button>
        </Stack>
      </Stack>
    </Paper>
  );
}
