import type { ReactNode } from 'react';
import { Button, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Messages } from '@edu/domain/common/messages';
import { PASSWORD_MIN_LENGTH } from '@edu/domain/auth/register';
import { ProfileMessages } from '@edu/domain/users/profile';
import { errorMessage, isApiError } from '../../../lib/api-client';
import { useCurrentUser } from '../../../lib/current-user';
import { firstErrors } from '../../../lib/field-errors';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { PasswordField } from '../../../components/password-field';
import { useChangePassword } from '../api/change-password';
import { useMailSubscription, useSetMailSubscription } from '../api/mail-subscription';
import { MailingMessages } from '@edu/domain/mailing/mailing';
import { focusFirstInvalid } from '../../../lib/focus-invalid';
import { TelegramSettings } from '../components/telegram-settings';

/** The mass-mailing switch (issue 13): the same choice as the unsubscribe link of the letters. */
function MailingSubscription() {
  const subscription = useMailSubscription();
  const set = useSetMailSubscription();
  async function change(subscribed: boolean) {
    try {
      const answer = await set.mutateAsync(subscribed);
      notifySuccess(answer.message);
    } catch (error) {
      notifyError(errorMessage(error));
    }
  }
  return (
    <Paper p="lg" radius="lg">
      <Stack gap="sm">
        <Title order={3} size="h5">
          Рассылка
        </Title>
        <Switch
          label={MailingMessages.subscriptionLabel}
          description={MailingMessages.subscriptionHint}
          checked={subscription.data?.subscribed ?? false}
          disabled={!subscription.data || set.isPending}
          onChange={(e) => void change(e.currentTarget.checked)}
        />
      </Stack>
    </Paper>
  );
}

/**
 * /user/settings: change password; the current one first, then the new one twice, which must match
 * (spec 01 §5). `extra`: blocks of other features composed in by app/ (the «Мои данные» archive).
 */
export function SettingsPage({ extra }: { extra?: ReactNode } = {}) {
  useDocumentTitle('Настройки');
  const { data: user } = useCurrentUser();
  const change = useChangePassword();
  const form = useForm({
    mode: 'controlled',
    initialValues: { current_password: '', password: '', password_confirmation: '' },
    validate: {
      current_password: (v) => (v ? null : ProfileMessages.currentPasswordRequired),
      password: (v) => (v.length < PASSWORD_MIN_LENGTH ? Messages.passwordMinLength : null),
      password_confirmation: (v, values) => (v !== values.password ? Messages.passwordsDontMatchBang : null),
    },
  });

  async function submit(values: typeof form.values) {
    if (!user) return;
    try {
      const answer = await change.mutateAsync({ id: user.id, ...values });
      notifySuccess(answer.message || Messages.passwordUpdated);
      form.reset();
    } catch (error) {
      if (isApiError(error) && error.status === 422) {
        form.setErrors(firstErrors(error.errors));
        focusFirstInvalid();
      }
      notifyError(errorMessage(error));
    }
  }

  const mismatch = form.values.password_confirmation.length > 0 && form.values.password !== form.values.password_confirmation;

  return (
    <Stack gap="lg" maw={520}>
      <Title order={2}>Настройки</Title>
      <Paper p="lg" radius="lg">
        <form onSubmit={form.onSubmit(submit, () => focusFirstInvalid())} noValidate aria-label="Смена пароля">
          <Stack gap="md">
            <Title order={3} size="h5">
              Смена пароля
            </Title>
            <PasswordField label={ProfileMessages.currentPassword} autoComplete="current-password" {...form.getInputProps('current_password')} />
            <PasswordField label="Новый пароль" autoComplete="new-password" {...form.getInputProps('password')} />
            <PasswordField label="Подтверждение пароля" autoComplete="new-password" {...form.getInputProps('password_confirmation')} />
            {mismatch && !form.errors.password_confirmation && (
              <Text size="sm" c="red.7">
                {Messages.passwordsDontMatchBang}
              </Text>
            )}
            <Text size="xs" c="dimmed">
              После смены пароля вход на других устройствах будет завершён.
            </Text>
            <Button
              type="submit"
              loading={change.isPending}
              disabled={!form.values.current_password || !form.values.password || !form.values.password_confirmation}
            >
              Сохранить
            </Button>
          </Stack>
        </form>
      </Paper>
      <MailingSubscription />
      <TelegramSettings />
      {extra}
    </Stack>
  );
}
