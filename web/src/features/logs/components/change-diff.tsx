import { Code, Stack, Text } from '@mantine/core';
import type { ChangeDiff } from '@edu/domain/logs/log';

/** Russian names of the fields that appear in diffs; others are shown by their column name. */
const FIELD_LABELS: Record<string, string> = {
  status: 'Статус',
  price: 'Цена',
  pay_type: 'Тип оплаты',
  section_id: 'Секция',
  is_extramural: 'Участие',
  certificate_number: 'Номер сертификата',
  registration_number: 'Регистрационный номер',
  deleted_at: 'Удалено',
  paid_at: 'Оплачено',
  done_at: 'Завершено',
  thesis_length: 'Тезисы (символов)',
  email: 'Email',
  phone: 'Телефон',
  last_name: 'Фамилия',
  first_name: 'Имя',
  middle_name: 'Отчество',
  organization: 'Организация',
  job_title: 'Должность',
  learned_from_us: 'Узнали о нас',
  address: 'Адрес',
  region: 'Регион',
  dict_region_id: 'Регион (справочник)',
  country: 'Страна',
  postcode: 'Индекс',
  note: 'Заметка',
  role: 'Роль',
  is_spb: 'Санкт-Петербург',
  password: 'Пароль',
  profiles: 'Профили',
  title: 'Название',
  login_as: 'Вход от имени пользователя',
  sum: 'Сумма',
  client_id: 'Клиент (id)',
  entries: 'Заявки',
  uuid: 'Платёж ЮKassa',
  is_double: 'Двойная оплата',
  description: 'Описание',
};

function show(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

/** A diff as 'field: old → new' lines (id and user_id never reach here). */
export function ChangeDiffView({ diff }: { diff: ChangeDiff }) {
  const entries = Object.entries(diff);
  if (entries.length === 0) return <Text size="sm" c="dimmed">—</Text>;
  return (
    <Stack gap={2}>
      {entries.map(([field, change]) => (
        <Text key={field} size="xs" lh={1.45} style={{ overflowWrap: 'anywhere' }}>
          <Text span size="xs" fw={600}>
            {FIELD_LABELS[field] ?? field}:
          </Text>{' '}
          <Code>{show(change.old)}</Code> → <Code>{show(change.new)}</Code>
        </Text>
      ))}
    </Stack>
  );
}
