import { useEffect, useState } from 'react';
import { Alert, Anchor, Button, Checkbox, Divider, Loader, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconAlertCircle } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { registerAttributes, registrationPasswordReady } from '@edu/domain/auth/register';
import { Messages } from '@edu/domain/common/messages';
import { fieldErrorsFromZod } from '@edu/domain/common/validation';
import { errorMessage, isApiError } from '../../../lib/api-client';
import { currentUserQuery } from '../../../lib/current-user';
import { notifySuccess } from '../../../lib/notify';
import { setToken } from '../../../lib/storage';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { PasswordField } from '../../../components/password-field';
import { PhoneInput } from '../../../components/phone-input';
import { findOldUser } from '../api/find-old-user';
import { useRegister, type RegisterInput } from '../api/register';
import { firstErrors } from '../../../lib/field-errors';
import { isDuplicateMessage } from '../components/duplicate-message';
import { loadPasswordScorer } from '../components/password-scorer';
import { PasswordStrength } from '../components/password-strength';
import { keepOldUser, keepRegisterDraft, takeRegisterDraft } from '../old-user-store';
import { focusFirstInvalid } from '../../../lib/focus-invalid';

const initialValues: RegisterInput & { no_middle_name: boolean } = {
  last_name: '',
  first_name: '',
  middle_name: '',
  no_middle_name: false,
  phone: '',
  email: '',
  organization: '',
  job_title: '',
  password: '',
  password_confirmation: '',
};

export function RegisterPage() {
  useDocumentTitle('Регистрация');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const registerMutation = useRegister();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const [draft] = useState(() => ({ ...initialValues, ...(takeRegisterDraft() ?? {}) }) as typeof initialValues);
  const form = useForm<RegisterInput & { no_middle_name: boolean }>({
    mode: 'controlled',
    // Back from 'Is this your account?' ('Нет, вернуться к регистрации'), what was typed is still there.
    initialValues: draft,
    // Errors show once a field is left or the form is sent, never on an untouched form.
    validateInputOnBlur: true,
    // The same rules as the server (domain), shown before the request.
    validate: (values) => {
      const parsed = registerAttributes.safeParse(values);
      return parsed.success ? {} : firstErrors(fieldErrorsFromZod(parsed.error));
    },
  });

  useEffect(() => {
    // Warm up the strength meter (zxcvbn is a separate chunk of this page only).
    loadPasswordScorer().catch(() => undefined);
  }, []);

  const { password, password_confirmation: confirmation } = form.values;
  const ready = registrationPasswordReady(password, confirmation);

  async function submit(values: RegisterInput & { no_middle_name: boolean }) {
    setProblem(null);
    setBusy(true);
    try {
      const token = await registerMutation.mutateAsync(values);
      setToken(token.access_token);
      notifySuccess(Messages.registered);
      await queryClient.fetchQuery({ ...currentUserQuery, staleTime: 0 }).catch(() => undefined);
      // Fire-and-forget: nothing waits on the route transition.
      void navigate('/user/dashboard', { replace: true });
    } catch (error) {
      if (isApiError(error) && error.status === 422) {
        if (isDuplicateMessage(error.message) && (await lookUpOldUser(values, error.errors))) return;
        const fieldErrors = firstErrors(error.errors);
        form.setErrors(fieldErrors);
        if (Object.keys(fieldErrors).length === 0) setProblem(error.message);
        else focusFirstInvalid();
      } else {
        setProblem(errorMessage(error));
      }
    } finally {
      setBusy(false);
    }
  }

  /** The account exists: find it, keep it with the typed values and go to the confirmation page. */
  async function lookUpOldUser(values: RegisterInput & { no_middle_name: boolean }, errors: Record<string, string[]> | undefined): Promise<boolean> {
    try {
      keepRegisterDraft(values as unknown as Record<string, string | boolean>);
      const user = await findOldUser(values);
      const matchedBy = errors?.email?.length || !errors?.phone?.length ? 'email' : 'phone';
      keepOldUser({ user, email: values.email.trim(), phone: values.phone, matchedBy });
      void navigate('/password/email');
      return true;
    } catch {
      return false;
    }
  }

  const userInputs = [form.values.email, form.values.last_name, form.values.first_name, form.values.phone].filter(Boolean);

  return (
    <Paper maw={760} mx="auto" p={{ base: 'lg', sm: 32 }} radius="lg" shadow="sm">
      <form onSubmit={form.onSubmit(submit, () => focusFirstInvalid())} noValidate aria-label="Регистрация">
        <Stack gap="lg">
          <div>
            <Title order={1} size="h2">
              Регистрация
            </Title>
            <Text c="dimmed" size="sm" mt={4}>
              Уже есть аккаунт?{' '}
              <Anchor component={Link} to="/login" size="sm" fw={600}>
                Войти
              </Anchor>
            </Text>
            <Text c="dimmed" size="sm">
              Все поля обязательны для заполнения (отчество — если оно есть).
            </Text>
          </div>

          {problem && (
            <Alert color="red" variant="light" icon={<IconAlertCircle size={20} />} role="alert">
              {problem}
            </Alert>
          )}

          <Stack gap="sm">
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md" verticalSpacing="sm">
              <TextInput label="Фамилия" autoComplete="family-name" {...form.getInputProps('last_name')} />
              <TextInput label="Имя" autoComplete="given-name" {...form.getInputProps('first_name')} />
              <Stack gap={6}>
                <TextInput label="Отчество" autoComplete="additional-name" disabled={form.values.no_middle_name} {...form.getInputProps('middle_name')} />
                <Checkbox
                  label="Нет отчества"
                  size="xs"
                  {...form.getInputProps('no_middle_name', { type: 'checkbox' })}
                  onChange={(event) => {
                    const checked = event.currentTarget.checked;
                    form.setFieldValue('no_middle_name', checked);
                    if (checked) {
                      form.setFieldValue('middle_name', '');
                      form.clearFieldError('middle_name');
                    }
                  }}
                />
              </Stack>
            </SimpleGrid>

            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
              <PhoneInput label="Телефон" {...form.getInputProps('phone')} />
              <TextInput label="E-mail" type="email" autoComplete="email" placeholder="name@example.ru" {...form.getInputProps('email')} />
              <TextInput label="Организация" autoComplete="organization" {...form.getInputProps('organization')} />
              <TextInput label="Должность" autoComplete="organization-title" {...form.getInputProps('job_title')} />
            </SimpleGrid>
          </Stack>

          <Divider />

          <Stack gap="sm">
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
              <PasswordField label="Пароль" autoComplete="new-password" {...form.getInputProps('password')} />
              <PasswordField label="Подтверждение пароля" autoComplete="new-password" {...form.getInputProps('password_confirmation')} />
            </SimpleGrid>
            <PasswordStrength password={password} confirmation={confirmation} userInputs={userInputs} />
          </Stack>

          <Stack gap="xs">
            {!ready && (
              // The spec's hint stays; it turns orange only once something was typed (no alarm on an untouched form).
              <Text size="sm" c={form.isDirty() ? 'orange.8' : 'dimmed'} fw={500} data-testid="register-not-ready">
                {Messages.fillAccordingToRules}
              </Text>
            )}
            <Button type="submit" size="md" disabled={!ready || busy} leftSection={busy ? <Loader size={16} color="gray" /> : undefined} fullWidth>
              {busy ? Messages.pleaseWait : 'Зарегистрироваться'}
            </Button>
            <Text size="xs" c="dimmed">
              Нажимая «Зарегистрироваться», вы даёте согласие на обработку персональных данных.
            </Text>
          </Stack>
        </Stack>
      </form>
    </Paper>
  );
}
