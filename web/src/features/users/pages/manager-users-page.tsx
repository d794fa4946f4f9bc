import type { ReactNode } from 'react';
import { useState } from 'react';
import { ActionIcon, Anchor, Avatar, Badge, Button, Group, Menu, Stack, Text, Tooltip } from '@mantine/core';
import { IconDots, IconFileImport, IconLogin2, IconPencil, IconPlus, IconRestore, IconTrash } from '@tabler/icons-react';
import { isOperator, roleLabels } from '@edu/domain/common/codes';
import { formatRub } from '@edu/domain/common/format';
import { userListQuery, type ManagedUser } from '@edu/domain/users/manager-user';
import { ConfirmModal } from '../../../components/confirm-modal';
import type { ListColumn } from '../../../components/data-list';
import type { FilterField } from '../../../components/filter-fields';
import { ListPage } from '../../../components/list-page';
import { useListParams } from '../../../components/use-list-params';
import { errorMessage } from '../../../lib/api-client';
import { useCurrentUser } from '../../../lib/current-user';
import { useDictionary } from '../../../lib/dictionaries';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useSetUserDeleted } from '../api/delete-managed-user';
import { useManagedUsers } from '../api/get-managed-users';
import { useLoginAs } from '../api/login-as';
import { UserImportModal } from '../components/user-import-modal';
import { UserModal } from '../components/user-modal';

const roleOptions = Object.entries(roleLabels).map(([value, label]) => ({ value, label }));
const roleColor: Record<number, string> = { 1: 'grape', 2: 'blue', 3: 'gray' };

/** Deleted users show their avatar at lower opacity (spec 02 §2). */
function UserName({ user }: { user: ManagedUser }) {
  return (
    <Group gap="sm" wrap="nowrap">
      <Avatar
        src={user.avatar_url}
        radius="xl"
        size={36}
        color="initials"
        name={user.fio}
        style={{ filter: user.deleted_at ? 'grayscale(1)' : undefined }}
        data-testid="user-avatar"
      >
        {user.initials}
      </Avatar>
      <div style={{ minWidth: 0 }}>
        <Text size="sm" fw={600} lh={1.3} td={user.deleted_at ? 'line-through' : undefined} c={user.deleted_at ? 'dimmed' : undefined}>
          {user.fio}
        </Text>
        {/* The role goes under the number when the cell is narrow: never over the next column. */}
        <Group gap={6} wrap="wrap" style={{ rowGap: 2 }}>
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            № {user.id} · {user.created_at_formatted}
            {user.deleted_at ? ' · удалён' : ''}
          </Text>
          <Badge color={roleColor[user.role]} variant="light" tt="none" size="xs" style={{ flexShrink: 0 }}>
            {user.role_label}
          </Badge>
        </Group>
      </div>
    </Group>
  );
}

/** An e-mail shown whole: it may wrap only after its '@' ('demo-client-14@' / 'example.com'), never inside a part. */
function Email({ email }: { email: string }) {
  const at = email.lastIndexOf('@');
  const nowrap = { whiteSpace: 'nowrap' } as const;
  if (at < 0) return <span style={nowrap}>{email}</span>;
  return (
    <>
      <span style={nowrap}>{email.slice(0, at + 1)}</span>
      <wbr />
      <span style={nowrap}>{email.slice(at + 1)}</span>
    </>
  );
}

function Contacts({ user }: { user: ManagedUser }) {
  if (!user.email && !user.phone)
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  return (
    <div style={{ minWidth: 0 }}>
      {user.email && (
        <Anchor href={`mailto:${user.email}`} size="sm" display="block" title={user.email}>
          <Email email={user.email} />
        </Anchor>
      )}
      {user.phone && (
        <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
          {user.phone}
        </Text>
      )}
    </div>
  );
}

function Work({ user }: { user: ManagedUser }) {
  if (!user.organization && !user.job_title)
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  return (
    <div>
      <Text size="sm" lh={1.3}>
        {user.organization}
      </Text>
      <Text size="xs" c="dimmed">
        {user.job_title}
      </Text>
    </div>
  );
}

function Profiles({ user }: { user: ManagedUser }) {
  if (user.profiles.length === 0)
    return (
      <Text size="sm" c="dimmed">
        Не заполнены
      </Text>
    );
  return (
    <Group gap={4}>
      {user.profiles.map((p) => (
        <Badge key={p.id} color={p.color ?? 'gray'} variant="light" tt="none" size="sm" maw="100%" title={p.fdv}>
          {p.fdv}
        </Badge>
      ))}
    </Group>
  );
}

function Figures({ user }: { user: ManagedUser }) {
  return (
    <Stack gap={0}>
      <Text size="sm" style={{ whiteSpace: 'nowrap' }}>
        Заявок: {user.entries_num}
      </Text>
      <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
        Оплачено: {user.service_count}
      </Text>
      <Text size="sm" c={user.left_sum > 0 ? 'red.7' : 'dimmed'} style={{ whiteSpace: 'nowrap' }} data-testid="user-left-sum">
        К оплате: {formatRub(user.left_sum)}
      </Text>
    </Stack>
  );
}

interface RowActionsProps {
  user: ManagedUser;
  myId: number;
  onEdit: (id: number) => void;
}

/** Edit, log in as the user (not for deleted users or operators), delete or restore. */
function RowActions({ user, myId, onEdit }: RowActionsProps) {
  const loginAs = useLoginAs();
  const setDeleted = useSetUserDeleted();
  const canLoginAs = !user.deleted_at && !isOperator(user);

  const [confirming, setConfirming] = useState(false);
  const deleting = !user.deleted_at;
  const toggleDeleted = () => setConfirming(true);
  function confirm() {
    setDeleted.mutate(
      { id: user.id, deleted: deleting },
      {
        onSuccess: (a) => {
          notifySuccess(a.message);
          setConfirming(false);
        },
        onError: (e) => notifyError(errorMessage(e)),
      },
    );
  }

  return (
    <Group gap={4} wrap="nowrap" justify="flex-end">
      <Tooltip label="Редактировать">
        <ActionIcon variant="subtle" aria-label={`Редактировать ${user.fio}`} onClick={() => onEdit(user.id)}>
          <IconPencil size={18} />
        </ActionIcon>
      </Tooltip>
      {canLoginAs && (
        <Tooltip label="Войти как пользователь">
          <ActionIcon
            variant="subtle"
            color="teal"
            aria-label={`Войти как ${user.fio}`}
            loading={loginAs.isPending}
            onClick={() => loginAs.mutate(user.id, { onError: (e) => notifyError(errorMessage(e)) })}
          >
            <IconLogin2 size={18} />
          </ActionIcon>
        </Tooltip>
      )}
      {user.id !== myId && (
        <Menu position="bottom-end" withinPortal>
          <Menu.Target>
            <ActionIcon variant="subtle" color="gray" aria-label={`Действия: ${user.fio}`}>
              <IconDots size={18} />
            </ActionIcon>
          </Menu.Target>
          <Menu.Dropdown>
            {user.deleted_at ? (
              <Menu.Item leftSection={<IconRestore size={16} />} color="teal" onClick={toggleDeleted}>
                Восстановить
              </Menu.Item>
            ) : (
              <Menu.Item leftSection={<IconTrash size={16} />} color="red" onClick={toggleDeleted}>
                Удалить
              </Menu.Item>
            )}
          </Menu.Dropdown>
        </Menu>
      )}
      <ConfirmModal
        opened={confirming}
        title={deleting ? 'Удаление пользователя' : 'Восстановление пользователя'}
        onClose={() => setConfirming(false)}
        onConfirm={confirm}
        loading={setDeleted.isPending}
        color={deleting ? 'red' : 'teal'}
      >
        <Text size="sm">{deleting ? 'Вы уверены, что хотите удалить?' : 'Восстановить пользователя?'}</Text>
        <Text size="sm" fw={600} mt={4}>
          {user.fio}
        </Text>
      </ConfirmModal>
    </Group>
  );
}

/** /manager/users (spec 02 §2): filters, table or cards, pagination, the modal, login as, delete and restore. */
/** `userExtra`: blocks of other features in a user's card, composed in by app/ (the personal-data actions). */
export function ManagerUsersPage({ userExtra }: { userExtra?: (userId: number) => ReactNode } = {}) {
  const params = useListParams(userListQuery);
  const list = useManagedUsers(params.query);
  const profiles = useDictionary('dict_profiles');
  const { data: me } = useCurrentUser();
  // undefined: closed; null: a new user; a number: that user.
  const [editing, setEditing] = useState<number | null | undefined>(undefined);
  const [importing, setImporting] = useState(false);

  const filters: FilterField[] = [
    { name: 'id', label: 'Номер', kind: 'text', placeholder: 'Номер пользователя', inputMode: 'numeric' },
    { name: 'fio', label: 'ФИО', kind: 'text', placeholder: 'Фамилия, имя, отчество' },
    { name: 'phone', label: 'Телефон', kind: 'text', placeholder: '+7 (999) 999-99-99', inputMode: 'tel' },
    { name: 'email', label: 'E-mail', kind: 'text', placeholder: 'name@example.com' },
    { name: 'role', label: 'Роль', kind: 'select', options: roleOptions },
    {
      name: 'profile',
      label: 'Профиль',
      kind: 'multiselect',
      options: [{ value: '0', label: 'Не заполнен' }, ...(profiles.data ?? []).map((p) => ({ value: String(p.id), label: p.fdv }))],
    },
    {
      name: 'is_spb',
      label: 'Город',
      kind: 'select',
      options: [
        { value: '1', label: 'Санкт-Петербург' },
        { value: '0', label: 'Другие города' },
      ],
    },
    {
      name: 'deleted',
      label: 'Показать',
      kind: 'segmented',
      options: [
        { value: '', label: 'Активные' },
        { value: 'true', label: 'Удалённые' },
      ],
    },
  ];

  const columns: Array<ListColumn<ManagedUser>> = [
    { key: 'fio', label: 'Пользователь', card: 'title', sort: 'fio', maxWidth: 280, render: (u) => <UserName user={u} /> },
    { key: 'contacts', label: 'Контакты', sort: 'email', maxWidth: 210, render: (u) => <Contacts user={u} /> },
    { key: 'work', label: 'Организация', maxWidth: 210, render: (u) => <Work user={u} /> },
    { key: 'profiles', label: 'Профили', maxWidth: 190, render: (u) => <Profiles user={u} /> },
    { key: 'entries', label: 'Заявки', sort: 'left_sum', render: (u) => <Figures user={u} /> },
    { key: 'actions', label: 'Действия', card: 'footer', align: 'right', render: (u) => <RowActions user={u} myId={me?.id ?? 0} onEdit={setEditing} /> },
  ];

  return (
    <ListPage
      title="Пользователи"
      actions={
        <Group gap="sm">
          <Button variant="default" leftSection={<IconFileImport size={16} />} onClick={() => setImporting(true)}>
            Импорт
          </Button>
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing(null)}>
            Добавить
          </Button>
        </Group>
      }
      filters={filters}
      params={params}
      list={list}
      columns={columns}
      testId="users"
      itemTestId="user"
      minWidth={960}
    >
      <UserModal userId={editing} onClose={() => setEditing(undefined)} extra={userExtra} />
      <UserImportModal opened={importing} onClose={() => setImporting(false)} />
    </ListPage>
  );
}
