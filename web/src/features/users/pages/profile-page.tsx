import { Badge, Button, Grid, Group, MultiSelect, Paper, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { Role } from '@edu/domain/common/codes';
import { formatRub } from '@edu/domain/common/format';
import { Messages } from '@edu/domain/common/messages';
import { fieldErrorsFromZod } from '@edu/domain/common/validation';
import type { CurrentUser } from '@edu/domain/users/current-user';
import { AVATAR_SIZE, ProfileMessages, updateOwnProfileBody } from '@edu/domain/users/profile';
import { errorMessage, isApiError } from '../../../lib/api-client';
import { useCurrentUser } from '../../../lib/current-user';
import { useDictionary } from '../../../lib/dictionaries';
import { firstErrors } from '../../../lib/field-errors';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { PhoneInput } from '../../../components/phone-input';
import { useStoreProfiles } from '../api/store-profiles';
import { useUpdateProfile } from '../api/update-profile';
import { AvatarUpload } from '../components/avatar-upload';

/** /user/profile (spec 01 §2, §5): avatar, personal and work info, counts, work profiles. */
export function ProfilePage() {
  useDocumentTitle('Профиль');
  const { data: user } = useCurrentUser();
  if (!user) return null;
  return (
    <Stack gap="lg">
      <Title order={2}>Профиль</Title>
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, md: 4 }}>
          <AvatarCard user={user} />
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
      <SimpleGrid cols={3} mt="lg" spacing="xs">
        <Count label="Заявок" value={String(user.entries_num)} testId="profile-entries" />
        <Count label="Оплачено" value={String(user.service_count)} testId="profile-paid" />
        <Count label="К оплате" value={formatRub(user.left_sum)} color={user.left_sum > 0 ? 'red.7' : 'teal.7'} testId="profile-left-sum" />
      </SimpleGrid>
    </Paper>
  );
}

function Count({ label, value, color, testId }: { label: string; value: string; color?: string; testId: string }) {
  return (
    <Stack gap={0} align="center" data-testid={testId}>
      <Text fw={700} size="lg" c={color} style={{ whiteSpace: 'nowrap' }}>
        {value}
      </Text>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
    </Stack>
  );
}

interface ProfileValues {
  last_name: string;
  first_name: string;
  middle_name: string;
  email: string;
  phone: string;
  organization: string;
  job_title: string;
  learned_from_us: string;
  profiles: string[];
}

function ProfileForm({ user }: { user: CurrentUser }) {
  const isOperator = user.role === Role.operator;
  const isGuest = user.role === Role.guest;
  const profiles = useDictionary('dict_profiles');
  const update = useUpdateProfile();
  const store = useStoreProfiles();

  const form = useForm<ProfileValues>({
    mode: 'controlled',
    initialValues: {
      last_name: user.last_name,
      first_name: user.first_name,
      middle_name: user.middle_name ?? '',
      email: user.email ?? '',
      phone: user.phone ?? '',
      organization: user.organization ?? '',
      job_title: user.job_title ?? '',
      learned_from_us: user.learned_from_us ?? '',
      profiles: user.profiles.map((p) => String(p.id)),
    },
    validate: (values) => {
      const parsed = updateOwnProfileBody.safeParse(values);
      const errors = parsed.success ? {} : firstErrors(fieldErrorsFromZod(parsed.error));
      if (values.profiles.length === 0) errors.profiles = ProfileMessages.chooseProfile;
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
        ...(isOperator ? { last_name: values.last_name, first_name: values.first_name, middle_name: values.middle_name || null } : {}),
      });
      await store.mutateAsync({ id: user.id, profiles: values.profiles.map(Number) });
      notifySuccess(Messages.saved);
    } catch (error) {
      if (isApiError(error) && error.status === 422) form.setErrors(firstErrors(error.errors));
      notifyError(errorMessage(error));
    }
  }

  const busy = update.isPending || store.isPending;

  return (
    <form onSubmit={form.onSubmit(submit, () => notifyError(Messages.required))} noValidate aria-label="Профиль">
      <Stack gap="lg">
        <Paper p="lg" radius="lg">
          <Title order={3} size="h5" mb="sm">
            Личные данные
          </Title>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md" verticalSpacing="sm">
            <TextInput label="Фамилия" disabled={!isOperator} {...form.getInputProps('last_name')} />
            <TextInput label="Имя" disabled={!isOperator} {...form.getInputProps('first_name')} />
            <TextInput label="Отчество" disabled={!isOperator} {...form.getInputProps('middle_name')} />
          </SimpleGrid>
          {!isOperator && (
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
            {!isGuest && <TextInput label="E-mail" type="email" withAsterisk autoComplete="email" {...form.getInputProps('email')} />}
            {!isGuest && <PhoneInput label="Телефон" withAsterisk {...form.getInputProps('phone')} />}
            <TextInput label="Организация" withAsterisk autoComplete="organization" {...form.getInputProps('organization')} />
            <TextInput label="Должность" withAsterisk autoComplete="organization-title" {...form.getInputProps('job_title')} />
            <TextInput label="Узнали о нас" placeholder="Например, от коллег" {...form.getInputProps('learned_from_us')} />
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
