import { useState } from 'react';
import { Alert, Anchor, Button, Checkbox, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { PasswordField } from '../../../components/password-field';
import { useForm } from '@mantine/form';
import { IconAlertCircle } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { Messages } from '@edu/domain/common/messages';
import { LoginMessages } from '@edu/domain/auth/login';
import { currentUserQuery, isValidUser } from '../../../lib/current-user';
import { clearToken, getRememberedPath, setToken } from '../../../lib/storage';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useLogin } from '../api/login';
import { LegacyNotice } from '../components/legacy-notice';
import { loginProblem, type LoginProblem } from '../components/login-problem';
import { focusFirstInvalid } from '../../../lib/focus-invalid';

const CABINET_PATH = /^\/(user|manager|entry)(\/|$)/;

/** Where to go after login: the remembered non-auth path, else the dashboard (spec 01 §2). */
function targetAfterLogin(): string {
  const remembered = getRememberedPath();
  return remembered && CABINET_PATH.test(remembered) ? remembered : '/user/dashboard';
}

export function LoginPage() {
  useDocumentTitle('Вход');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const loginMutation = useLogin();
  const [problem, setProblem] = useState<LoginProblem | null>(null);
  const [loadingUser, setLoadingUser] = useState(false);
  const form = useForm({
    mode: 'controlled',
    initialValues: { email: '', password: '', remember: false },
    validate: {
      email: (v) => (v.trim() ? null : LoginMessages.loginRequired),
      password: (v) => (v ? null : LoginMessages.passwordRequired),
    },
  });

  async function submit(values: typeof form.values) {
    setProblem(null);
    let token: string;
    try {
      token = (await loginMutation.mutateAsync(values)).access_token;
    } catch (error) {
      setProblem(loginProblem(error));
      return;
    }
    setToken(token);
    setLoadingUser(true);
    try {
      const user = await queryClient.fetchQuery({ ...currentUserQuery, staleTime: 0 });
      if (!isValidUser(user)) throw new Error('no user');
      // Fire-and-forget: nothing waits on the route transition.
      void navigate(targetAfterLogin(), { replace: true });
    } catch {
      clearToken();
      queryClient.clear();
      setProblem({ message: Messages.serverError });
    } finally {
      setLoadingUser(false);
    }
  }

  const busy = loginMutation.isPending || loadingUser;

  return (
    <Stack maw={440} mx="auto" gap="lg">
      <Paper p={{ base: 'lg', sm: 32 }} radius="lg" shadow="sm">
        <form
          onSubmit={form.onSubmit(submit, () => {
            setProblem({ message: Messages.required });
            focusFirstInvalid();
          })}
          noValidate
          aria-label="Вход"
        >
          <Stack gap="md">
            <div>
              <Title order={1} size="h2">
                Вход в личный кабинет
              </Title>
              <Text c="dimmed" size="sm" mt={4}>
                Курсы, конференции, конкурсы и публикации учебного центра
              </Text>
            </div>

            {problem && (
              <Alert color="red" variant="light" icon={<IconAlertCircle size={20} />} role="alert" data-testid="login-error">
                <Text size="sm">{problem.message}</Text>
                {problem.link && (
                  <Anchor component={Link} to={problem.link.to} size="sm" fw={600}>
                    {problem.link.label}
                  </Anchor>
                )}
              </Alert>
            )}

            <TextInput
              label="Телефон или e-mail"
              placeholder="name@example.ru или +7 (999) 123-45-67"
              autoComplete="username"
              inputMode="email"
              autoFocus
              {...form.getInputProps('email')}
            />
            <PasswordField label="Пароль" autoComplete="current-password" {...form.getInputProps('password')} />

            <Group justify="space-between" gap="xs">
              <Checkbox label="Запомнить меня" {...form.getInputProps('remember', { type: 'checkbox' })} />
              <Anchor component={Link} to="/password/reset" size="sm">
                Забыли пароль?
              </Anchor>
            </Group>

            <Button type="submit" size="md" fullWidth loading={busy}>
              Войти
            </Button>

            <Text size="sm" ta="center">
              Нет аккаунта?{' '}
              <Anchor component={Link} to="/register" fw={600}>
                Зарегистрироваться
              </Anchor>
            </Text>
          </Stack>
        </form>
      </Paper>
      <LegacyNotice />
    </Stack>
  );
}
