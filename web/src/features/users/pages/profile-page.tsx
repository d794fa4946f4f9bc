import type { ReactNode } from 'react';
import { Badge, Button, Grid, Group, MultiSelect, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { isGuest, isOperator } from '@edu/domain/common/codes';
import { Messages } from '@edu/domain/common/messages';
import { fieldErrorsFromZod, headlineOf } from '@edu/domain/common/validation';
import type { CurrentUser } from '@edu/domain/users/current-user';
import { AVATAR_SIZE, ProfileMessages, updateOwnProfileBody } from '@edu/domain/users/profile';
import { errorMessage, isApiError } from '../../../lib/api-client';
import { useCurrentUser } from '../../../lib/current-user';
import { useDictionary } from '../../../lib/dictionaries';
import { firstErrors } from '../../../lib/field-errors';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { PasswordField } from '../../../components/password-field';
import { PhoneInput } from '../../../components/phone-input';
import { useStoreProfiles } from '../api/store-profiles';
import { useUpdateProfile } from '../api/update-profile';
import { AvatarUpload } from '../components/avatar-upload';
import { EntryFigures, personValues, type PersonValues } from '../components/person-fields';
import { focusFirstInvalid } from '../../../lib/focus-invalid';

/** /user/profile (spec 01 §2, §5): avatar, personal and work info, counts, work profiles, the documents card slot. */
export function ProfilePage({ documentsCard }: { documentsCard?: (user: CurrentUser) => ReactNode } = {}) {
  useDocumentTitle('Профиль');
  const { data: user } = useCurrentUser();
  if (!user) return null;
  return (
    <Stack gap="lg">
      <Title order={2}>Профиль</Title>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 4 }}>
          <Stack gap="lg">
            <AvatarCard user={user} />
            {documentsCard?.(user)}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 8 }}>
          <ProfileForm key={user.id} user={user} />
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

function AvatarCard({ user }: { user: CurrentUser }) {
  return (
    <Paper p="lg" radius="lg">
      <Stack align="center" gap="sm" ta="center">
        <AvatarUpload user={user} size={AVATAR_SIZE} />
        <Text size="xs" c="dimmed">
          Нажмите на фото, чтобы загрузить новое (JPG или PNG, до 10 МБ)
        </Text>
        <Title order={3} size="h4" style={{ overflowWrap: 'anywhere' }}>
          {user.fio}
        </Title>
        <Badge variant="light" tt="none">
          {user.role_label}
        </Badge>
      </Stack>
      <EntryFigures user={user} testIdPrefix="profile" mt="lg" />
    </Paper>
  );
}

interface ProfileValues extends PersonValues {
  profiles: string[];
  current_password: string;
}

function ProfileForm({ user }: { user: CurrentUser }) {
  const operator = isOperator(user);
  const guest = isGuest(user);
  const profiles = useDictionary('dict_profiles');
  const update = useUpdateProfile();
  const store = useStoreProfiles();

  // One's own e-mail changes only with the current password (the server asks for it too).
  const emailChanged = (email: string) => !guest && email.trim().toLowerCase() !== (user.email ?? '').toLowerCase();
  const form = useForm<ProfileValues>({
    mode: 'controlled',
    initialValues: {
      ...personValues(user),
      profiles: user.profiles.map((p) => String(p.id)),
      current_password: '',
    },
    validate: (values) => {
      const parsed = updateOwnProfileBody.safeParse(values);
      const errors = parsed.success ? {} : firstErrors(fieldErrorsFromZod(parsed.error));
      if (values.profiles.length === 0) errors.profiles = ProfileMessages.chooseProfile;
      if (emailChanged(values.email) && !values.current_password) errors.current_password = ProfileMessages.currentPasswordRequired;
      return errors;
    },
  });

  async function submit(values: ProfileValues) {
    try {
      await update.mutateAsync({
        id: user.id,
        email: values.email.trim(),
        phone: values.phone,
        organization: values.organization.trim(),
        job_title: values.job_title.trim(),
        learned_from_us: values.learned_from_us.trim() || null,
        ...(emailChanged(values.email) ? { current_password: values.current_password } : {}),
        ...(operator ? { last_name: values.last_name, first_name: values.first_name, middle_name: values.middle_name || null } : {}),
      });
      await store.mutateAsync({ id: user.id, profiles: values.profiles.map(Number) });
      form.setFieldValue('current_password', '');
      notifySuccess(Messages.saved);
    } catch (error) {
      if (isApiError(error) && error.status === 422) {
        form.setErrors(firstErrors(error.errors));
        focusFirstInvalid();
      }
      notifyError(errorMessage(error));
    }
  }

  const busy = update.isPending || store.isPending;

  return (
    <form
      onSubmit={form.onSubmit(submit, (errors) => {
        notifyError(headlineOf(errors as Record<string, string>));
        focusFirstInvalid();
      })}
      noValidate
      aria-label="Профиль"
    >
      <Stack gap="lg">
        <Paper p="lg" radius="lg">
          <Title order={3} size="h5" mb="sm">
            Личные данные
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md" verticalSpacing="sm">
            <TextInput label="Фамилия" disabled={!operator} {...form.getInputProps('last_name')} />
            <TextInput label="Имя" disabled={!operator} {...form.getInputProps('first_name')} />
            <TextInput label="Отчество" disabled={!operator} {...form.getInputProps('middle_name')} />
          </SimpleGrid>
          {!operator && (
            <Text size="xs" c="dimmed" mt="xs">
              Чтобы изменить ФИО, обратитесь к оператору учебного центра.
            </Text>
          )}
        </Paper>

        <Paper p="lg" radius="lg">
          <Title order={3} size="h5" mb="sm">
            Работа и контакты
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
            {!guest && <TextInput label="E-mail" type="email" withAsterisk autoComplete="email" {...form.getInputProps('email')} />}
            {!guest && <PhoneInput label="Телефон" withAsterisk {...form.getInputProps('phone')} />}
            <TextInput label="Организация" withAsterisk autoComplete="organization" {...form.getInputProps('organization')} />
            <TextInput label="Должность" withAsterisk autoComplete="organization-title" {...form.getInputProps('job_title')} />
            <TextInput label="Узнали о нас" placeholder="Например, от коллег" {...form.getInputProps('learned_from_us')} />
            {emailChanged(form.values.email) && (
              <PasswordField
                label={ProfileMessages.currentPassword}
                description="Нужен, чтобы сменить e-mail"
                withAsterisk
                autoComplete="current-password"
                {...form.getInputProps('current_password')}
              />
            )}
          </SimpleGrid>
        </Paper>

        <Paper p="lg" radius="lg">
          <Title order={3} size="h5" mb={4}>
            Профили работы
          </Title>
          <Text size="sm" c="dimmed" mb="sm">
            По профилям мы подбираем подходящие услуги и пакеты.
          </Text>
          <MultiSelect
            label="Профили"
            withAsterisk
            placeholder={form.values.profiles.length ? undefined : 'Выберите профили'}
            data={(profiles.data ?? []).map((p) => ({ value: String(p.id), label: p.fdv }))}
            searchable
            clearable
            nothingFoundMessage="Ничего не найдено"
            {...form.getInputProps('profiles')}
          />
        </Paper>

        <Group justify="flex-end">
          <Button type="submit" loading={busy} size="md">
            Сохранить
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
