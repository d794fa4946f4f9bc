import { useEffect, type ReactNode } from 'react';
import {
  Alert,
  Button,
  Divider,
  Fieldset,
  Group,
  Modal,
  MultiSelect,
  PasswordInput,
  SegmentedControl,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { isGuest, Role, roleLabels } from '@edu/domain/common/codes';
import { Messages } from '@edu/domain/common/messages';
import { fieldErrorsFromZod, headlineOf } from '@edu/domain/common/validation';
import { managerUserBody, type ManagedUser, type ManagerUserInput } from '@edu/domain/users/manager-user';
import { PersonalDataMessages } from '@edu/domain/personal-data/personal-data';
import { PhoneInput } from '../../../components/phone-input';
import { errorMessage, isApiError } from '../../../lib/api-client';
import { useDictionary } from '../../../lib/dictionaries';
import { firstErrors } from '../../../lib/field-errors';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useManagedUser } from '../api/get-managed-user';
import { useSaveManagedUser } from '../api/save-managed-user';
import { EntryFigures, personValues, type PersonValues } from './person-fields';
import { focusFirstInvalid } from '../../../lib/focus-invalid';

interface FormValues extends PersonValues {
  address: string;
  region: string;
  dict_region_id: string | null;
  country: string;
  postcode: string;
  role: string;
  note: string;
  profiles: string[];
  is_spb: string;
  password: string;
}

const empty: FormValues = {
  last_name: '',
  first_name: '',
  middle_name: '',
  email: '',
  phone: '',
  organization: '',
  job_title: '',
  learned_from_us: '',
  address: '',
  region: '',
  dict_region_id: null,
  country: '',
  postcode: '',
  role: String(Role.user),
  note: '',
  profiles: [],
  is_spb: '0',
  password: '',
};

function toForm(u: ManagedUser): FormValues {
  return {
    ...personValues(u),
    address: u.address ?? '',
    region: u.region ?? '',
    dict_region_id: u.dict_region_id ? String(u.dict_region_id) : null,
    country: u.country ?? '',
    postcode: u.postcode ?? '',
    role: String(u.role),
    note: u.note ?? '',
    profiles: u.profiles.map((p) => String(p.id)),
    is_spb: String(u.is_spb),
    password: '',
  };
}

function toBody(v: FormValues): ManagerUserInput {
  return {
    ...v,
    dict_region_id: v.dict_region_id ? Number(v.dict_region_id) : null,
    role: Number(v.role),
    is_spb: v.is_spb === '1' ? 1 : 0,
    profiles: v.profiles.map(Number),
    password: v.password || null,
  };
}

const roleOptions = Object.entries(roleLabels).map(([value, label]) => ({ value, label }));

export interface UserModalProps {
  /** null: a new user; a number: that user; undefined: closed. */
  userId: number | null | undefined;
  onClose: () => void;
  /** Blocks of other features for an existing user's card, composed in by app/ (the personal-data actions). */
  extra?: (userId: number) => ReactNode;
}

/**
 * The user create/edit modal (spec 02 §2): every field; name parts editable; e-mail and phone hidden
 * for guests, who get the St. Petersburg choice; password write-only and hidden for a new user; the
 * card shows entry count, paid count and amount due.
 */
export function UserModal({ userId, onClose, extra }: UserModalProps) {
  const opened = userId !== undefined;
  const isNew = userId === null;
  const loaded = useManagedUser(opened && !isNew ? userId : null);
  const profiles = useDictionary('dict_profiles');
  const regions = useDictionary('dict_regions');
  const save = useSaveManagedUser();
  const form = useForm<FormValues>({ initialValues: empty });
  const user = isNew ? null : loaded.data;

  useEffect(() => {
    if (!opened) return;
    form.setValues(user ? toForm(user) : empty);
    form.resetDirty();
    form.clearErrors();
    // Fill the form once per opened user, and again when the person's name changed behind it (their
    // data was erased from the card: the form must not keep, and save back, the old values).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opened, user?.id, user?.fio]);

  const guest = isGuest({ role: Number(form.values.role) });
  // An erased person's card is read-only: the server refuses to write their data back.
  const erased = Boolean(user?.erased_at);

  async function submit(values: FormValues) {
    const body = toBody(values);
    const parsed = managerUserBody.safeParse(body);
    if (!parsed.success) {
      const errors = fieldErrorsFromZod(parsed.error);
      form.setErrors(firstErrors(errors));
      focusFirstInvalid();
      notifyError(headlineOf(errors));
      return;
    }
    try {
      const answer = await save.mutateAsync({ id: userId ?? null, body });
      notifySuccess(answer.message);
      onClose();
    } catch (error) {
      if (isApiError(error) && error.status === 422) {
        form.setErrors(firstErrors(error.errors));
        focusFirstInvalid();
      }
      notifyError(errorMessage(error));
    }
  }

  const title = isNew ? 'Новый пользователь' : user ? user.fio.trim() || `Пользователь № ${user.id}` : 'Пользователь';
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="xl" centered>
      {!isNew && !user ? (
        loaded.isError ? (
          <Text c="red.7">{errorMessage(loaded.error)}</Text>
        ) : (
          <Stack>
            {Array.from({ length: 6 }, (_, i) => (
              <Skeleton key={i} h={36} />
            ))}
          </Stack>
        )
      ) : (
        <form onSubmit={form.onSubmit(submit, () => focusFirstInvalid())} noValidate>
          <Stack gap="md">
            {user && <EntryFigures user={user} data-testid="user-card-counts" />}
            {erased && <Alert color="gray">{PersonalDataMessages.alreadyErased} Карточку изменить нельзя.</Alert>}
            <Fieldset variant="unstyled" disabled={erased}>
              <Stack gap="md">
                <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
                  <TextInput label="Фамилия" withAsterisk {...form.getInputProps('last_name')} />
                  <TextInput label="Имя" withAsterisk {...form.getInputProps('first_name')} />
                  <TextInput label="Отчество" {...form.getInputProps('middle_name')} />
                </SimpleGrid>
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                  <Select label="Роль" data={roleOptions} allowDeselect={false} {...form.getInputProps('role')} />
                  {guest ? (
                    <Stack gap={4}>
                      <Text size="sm" fw={500}>
                        Город
                      </Text>
                      <SegmentedControl
                        aria-label="Город"
                        data={[
                          { value: '1', label: 'Санкт-Петербург' },
                          { value: '0', label: 'Другие города' },
                        ]}
                        {...form.getInputProps('is_spb')}
                      />
                    </Stack>
                  ) : (
                    <TextInput label="E-mail" type="email" withAsterisk {...form.getInputProps('email')} />
                  )}
                  {!guest && <PhoneInput label="Телефон" withAsterisk {...form.getInputProps('phone')} />}
                  <TextInput label="Организация" withAsterisk={!guest} {...form.getInputProps('organization')} />
                  <TextInput label="Должность" withAsterisk={!guest} {...form.getInputProps('job_title')} />
                  <TextInput label="Узнали о нас" {...form.getInputProps('learned_from_us')} />
                </SimpleGrid>
                <MultiSelect
                  label="Профили"
                  withAsterisk={!guest}
                  data={(profiles.data ?? []).map((p) => ({ value: String(p.id), label: p.fdv }))}
                  searchable
                  nothingFoundMessage={Messages.nothingFound}
                  {...form.getInputProps('profiles')}
                />
                <Divider label="Адрес" labelPosition="left" />
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
                  <Select
                    label="Регион"
                    data={(regions.data ?? []).map((r) => ({ value: String(r.id), label: r.fdv }))}
                    searchable
                    clearable
                    nothingFoundMessage={Messages.nothingFound}
                    {...form.getInputProps('dict_region_id')}
                  />
                  <TextInput label="Населённый пункт / регион (текстом)" {...form.getInputProps('region')} />
                  <TextInput label="Страна" {...form.getInputProps('country')} />
                  <TextInput label="Индекс" {...form.getInputProps('postcode')} />
                </SimpleGrid>
                <TextInput label="Адрес" {...form.getInputProps('address')} />
                <Textarea label="Заметка менеджера" autosize minRows={2} maxRows={6} {...form.getInputProps('note')} />
                {!isNew && !erased && (
                  <PasswordInput
                    label="Новый пароль"
                    description="Оставьте пустым, чтобы не менять. Минимальная длина: 4 символа"
                    autoComplete="new-password"
                    {...form.getInputProps('password')}
                  />
                )}
              </Stack>
            </Fieldset>
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={onClose}>
                {erased ? 'Закрыть' : 'Отмена'}
              </Button>
              {!erased && (
                <Button type="submit" loading={save.isPending}>
                  Сохранить
                </Button>
              )}
            </Group>
          </Stack>
        </form>
      )}
      {user && extra && <Stack mt="lg">{extra(user.id)}</Stack>}
    </Modal>
  );
}
