import { useState } from 'react';
import { Alert, Anchor, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconMailCheck, IconUserQuestion } from '@tabler/icons-react';
import { Link } from 'react-router';
import { Messages } from '@edu/domain/common/messages';
import { errorMessage, isApiError } from '../../../lib/api-client';
import { useOldCabinetUrl } from '../../../lib/public-config';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { usePasswordForgot } from '../api/password-forgot';
import { firstErrors } from '../../../lib/field-errors';
import { focusFirstInvalid } from '../../../lib/focus-invalid';

type Outcome = 'sent' | 'not-found' | null;

/** An e-mail field and a button to send a new password (spec 01 §2, Password reset). */
export function PasswordForgotForm() {
  const forgot = usePasswordForgot();
  const oldCabinetUrl = useOldCabinetUrl();
  const [outcome, setOutcome] = useState<Outcome>(null);
  const form = useForm({ mode: 'controlled', initialValues: { email: '' } });

  async function submit(values: { email: string }) {
    setOutcome(null);
    try {
      await forgot.mutateAsync({ email: values.email.trim() });
      notifySuccess(Messages.passwordSent);
      setOutcome('sent');
    } catch (error) {
      if (isApiError(error) && error.status === 422) {
        const fieldErrors = firstErrors(error.errors);
        if (error.message === Messages.emailNotFound) {
          // Said once, in the banner with its links; the field is only marked.
          form.setErrors({ email: true });
          setOutcome('not-found');
          return;
        }
        form.setErrors(fieldErrors);
        focusFirstInvalid();
        if (Object.keys(fieldErrors).length === 0) {
          notifyError(error.message);
        }
      } else {
        notifyError(errorMessage(error));
      }
    }
  }

  return (
    <Stack maw={480} mx="auto" gap="lg">
      <Paper p={{ base: 'lg', sm: 32 }} radius="lg" shadow="sm">
        <form onSubmit={form.onSubmit(submit, () => focusFirstInvalid())} noValidate aria-label="Восстановление пароля">
          <Stack gap="md">
            <div>
              <Title order={1} size="h2">
                Восстановление пароля
              </Title>
              <Text c="dimmed" size="sm" mt={4}>
                Укажите e-mail, с которым вы регистрировались: мы пришлём на него новый пароль.
              </Text>
            </div>

            {outcome === 'sent' && (
              <Alert color="teal" variant="light" icon={<IconMailCheck size={20} />} title="Письмо отправлено">
                <Text size="sm">Проверьте почту и войдите с новым паролем.</Text>
                <Anchor component={Link} to="/login" size="sm" fw={600}>
                  Перейти ко входу
                </Anchor>
              </Alert>
            )}

            {outcome === 'not-found' && (
              <Alert
                color="orange"
                variant="light"
                icon={<IconUserQuestion size={20} />}
                title={Messages.emailNotFound}
                data-testid="email-not-found"
                role="alert"
              >
                <Text size="sm">
                  <Anchor component={Link} to="/register" inherit fw={600}>
                    Зарегистрируйтесь
                  </Anchor>{' '}
                  или проверьте{' '}
                  <Anchor href={oldCabinetUrl} target="_blank" rel="noopener noreferrer" inherit fw={600}>
                    старый личный кабинет
                  </Anchor>
                  .
                </Text>
              </Alert>
            )}

            <TextInput label="E-mail" type="email" autoComplete="email" placeholder="name@example.ru" autoFocus {...form.getInputProps('email')} />
            <Button type="submit" size="md" fullWidth loading={forgot.isPending}>
              Отправить новый пароль
            </Button>
            <Group justify="space-between" gap="xs">
              <Anchor component={Link} to="/login" size="sm">
                Вспомнили пароль? Войти
              </Anchor>
              <Anchor component={Link} to="/register" size="sm">
                Регистрация
              </Anchor>
            </Group>
          </Stack>
        </form>
      </Paper>
    </Stack>
  );
}
