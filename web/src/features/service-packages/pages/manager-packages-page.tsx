import { useMemo, useState } from 'react';
import {
  ActionIcon,
  Badge,
  Button,
  ColorSwatch,
  Group,
  Modal,
  MultiSelect,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  Title,
  Tooltip,
  DEFAULT_THEME,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPencil, IconPin, IconPlus, IconTrash } from '@tabler/icons-react';
import { formatRub } from '@edu/domain/common/format';
import { Messages } from '@edu/domain/common/messages';
import { PackageFormMessages, type ServicePackage } from '@edu/domain/service-packages/service-package';
import { DataList, type ListColumn } from '../../../components/data-list';
import { ConfirmDeleteModal } from '../../../components/confirm-delete-modal';
import { errorMessage } from '../../../lib/api-client';
import { paletteColor } from '../../../lib/colors';
import { useDictionary } from '../../../lib/dictionaries';
import { fieldErrorsOf } from '../../../lib/field-errors';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useNarrow } from '../../../lib/use-narrow';
import { usePackages } from '../api/get-packages';
import { useDeletePackage, useSavePackage, useServiceChoices } from '../api/manage-package';
import { focusFirstInvalid } from '../../../lib/focus-invalid';

const COLORS = ['grape', 'violet', 'indigo', 'blue', 'cyan', 'teal', 'green', 'lime', 'yellow', 'orange', 'red', 'pink'];

/** /manager/service-package: packages with their services, price, old price, points, colour and pinned profile. */
export function ManagerPackagesPage() {
  useDocumentTitle('Пакеты услуг');
  const narrow = useNarrow();
  const list = usePackages();
  const profiles = useDictionary('dict_profiles');
  const [editing, setEditing] = useState<{ pkg: ServicePackage | null } | null>(null);
  const [removing, setRemoving] = useState<ServicePackage | null>(null);
  const remove = useDeletePackage();
  const profileName = (id: number | null) => (id ? (profiles.data?.find((p) => p.id === id)?.fdv ?? `#${id}`) : 'Для всех');

  const columns: Array<ListColumn<ServicePackage>> = [
    {
      key: 'title',
      label: 'Пакет',
      card: 'title',
      render: (p) => (
        <Group gap="xs" wrap="nowrap">
          <ColorSwatch color={`var(--mantine-color-${paletteColor(p.color, 'grape')}-6)`} size={14} />
          <Text size="sm" fw={600}>
            {p.title}
          </Text>
        </Group>
      ),
    },
    { key: 'services', label: 'Услуги', render: (p) => <Text size="sm">{p.services.map((s) => s.title).join(' · ') || '—'}</Text> },
    {
      key: 'price',
      label: 'Цена',
      card: 'aside',
      nowrap: true,
      render: (p) => (
        <Stack gap={0} align="flex-end">
          <Text size="sm" fw={600}>
            {formatRub(p.price)}
          </Text>
          {p.oldPrice !== null && (
            <Text size="xs" c="dimmed" td="line-through">
              {formatRub(p.oldPrice)}
            </Text>
          )}
        </Stack>
      ),
    },
    { key: 'points', label: 'Баллы', align: 'right', render: (p) => String(p.points) },
    {
      key: 'profile',
      label: 'Профиль',
      render: (p) => (
        <Stack gap={4} align="flex-start">
          <Text size="sm">{profileName(p.dict_profile_id)}</Text>
          {p.is_pinned && (
            <Badge size="sm" variant="light" tt="none" leftSection={<IconPin size={12} />} style={{ overflow: 'visible' }}>
              Закреплён
            </Badge>
          )}
        </Stack>
      ),
    },
    {
      key: 'actions',
      label: '',
      card: 'footer',
      render: (p) => (
        <Group gap={4} wrap="nowrap" justify="flex-end">
          <Tooltip label="Изменить" openDelay={300}>
            <ActionIcon variant="light" color="indigo" aria-label={`Изменить пакет ${p.title}`} onClick={() => setEditing({ pkg: p })}>
              <IconPencil size={18} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Удалить" openDelay={300}>
            <ActionIcon variant="subtle" color="red" aria-label={`Удалить пакет ${p.title}`} onClick={() => setRemoving(p)}>
              <IconTrash size={18} />
            </ActionIcon>
          </Tooltip>
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Group align="baseline" gap="md">
          <Title order={2}>Пакеты услуг</Title>
          {list.data && (
            <Text size="sm" c="dimmed">
              Всего: {list.data.length}
            </Text>
          )}
        </Group>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({ pkg: null })}>
          Добавить пакет
        </Button>
      </Group>
      <DataList
        rows={list.data}
        columns={columns}
        rowKey={(p) => p.id}
        narrow={narrow}
        loading={list.isPending}
        error={list.isError ? errorMessage(list.error) : null}
        testId="packages"
        itemTestId="package"
        minWidth={900}
      />
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={editing?.pkg ? 'Пакет услуг' : 'Новый пакет услуг'} size="lg">
        {editing && (
          <PackageForm
            key={editing.pkg?.id ?? 'new'}
            pkg={editing.pkg}
            profiles={(profiles.data ?? []).map((p) => ({ value: String(p.id), label: p.fdv }))}
            onClose={() => setEditing(null)}
          />
        )}
      </Modal>
      <ConfirmDeleteModal
        target={removing}
        title="Удаление пакета"
        question={PackageFormMessages.deleteConfirm}
        remove={remove.mutateAsync}
        loading={remove.isPending}
        onClose={() => setRemoving(null)}
      />
    </Stack>
  );
}

function PackageForm({ pkg, profiles, onClose }: { pkg: ServicePackage | null; profiles: Array<{ value: string; label: string }>; onClose: () => void }) {
  const save = useSavePackage();
  const [title, setTitle] = useState(pkg?.title ?? '');
  const [description, setDescription] = useState(pkg?.description ?? '');
  const [color, setColor] = useState(paletteColor(pkg?.color, 'grape'));
  const [price, setPrice] = useState<number | string>(pkg?.price ?? 0);
  const [oldPrice, setOldPrice] = useState<number | string>(pkg?.oldPrice ?? '');
  const [points, setPoints] = useState<number | string>(pkg?.points ?? 0);
  const [profile, setProfile] = useState<string | null>(pkg?.dict_profile_id ? String(pkg.dict_profile_id) : null);
  const [pinned, setPinned] = useState(pkg?.is_pinned ?? false);
  const [services, setServices] = useState<string[]>(pkg?.services.map((s) => String(s.id)) ?? []);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const choices = useServiceChoices(debounced);
  const [errors, setErrors] = useState<Record<string, string>>({});
  // Labels of chosen services stay known while the search shows others.
  const [known, setKnown] = useState<Record<string, string>>(() =>
    Object.fromEntries((pkg?.services ?? []).map((s) => [String(s.id), `${s.title} · ${formatRub(s.price)}`])),
  );
  const data = useMemo(() => {
    const found = (choices.data?.data ?? []).map((s) => ({ value: String(s.id), label: `${s.title} · ${formatRub(s.price)}` }));
    const chosen = services.filter((id) => !found.some((f) => f.value === id)).map((id) => ({ value: id, label: known[id] ?? `#${id}` }));
    return [...chosen, ...found];
  }, [choices.data, services, known]);

  async function submit() {
    setErrors({});
    try {
      const answer = await save.mutateAsync({
        id: pkg?.id ?? null,
        body: {
          title,
          description: description || null,
          color,
          price: Number(price || 0),
          old_price: oldPrice === '' ? null : Number(oldPrice),
          points: Number(points || 0),
          dict_profile_id: profile ? Number(profile) : null,
          is_pinned: pinned,
          services: services.map(Number),
        },
      });
      notifySuccess(answer.message);
      onClose();
    } catch (error) {
      setErrors(fieldErrorsOf(error));
      focusFirstInvalid();
      notifyError(errorMessage(error));
    }
  }

  return (
    <Stack gap="md">
      <TextInput label="Название" required value={title} onChange={(e) => setTitle(e.currentTarget.value)} error={errors.title} data-autofocus />
      <Textarea label="Описание" autosize minRows={2} value={description} onChange={(e) => setDescription(e.currentTarget.value)} error={errors.description} />
      <MultiSelect
        label="Услуги"
        required
        data={data}
        value={services}
        onChange={(v) => {
          setServices(v);
          setKnown((prev) => ({ ...prev, ...Object.fromEntries(data.filter((d) => v.includes(d.value)).map((d) => [d.value, d.label])) }));
        }}
        searchable
        searchValue={search}
        onSearchChange={setSearch}
        filter={({ options }) => options}
        nothingFoundMessage={Messages.nothingFound}
        error={errors.services}
        placeholder="Начните вводить название"
      />
      <SimpleGrid cols={{ base: 1, xs: 3 }}>
        <NumberInput label="Цена, ₽" required min={0} decimalScale={2} thousandSeparator=" " value={price} onChange={setPrice} error={errors.price} />
        <NumberInput label="Старая цена, ₽" min={0} decimalScale={2} thousandSeparator=" " value={oldPrice} onChange={setOldPrice} error={errors.old_price} />
        <NumberInput label="Баллы" min={0} allowDecimal={false} value={points} onChange={setPoints} error={errors.points} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, xs: 2 }}>
        <Select label="Профиль" data={profiles} value={profile} onChange={setProfile} clearable placeholder="Для всех" error={errors.dict_profile_id} />
        <Select
          label="Цвет"
          data={COLORS.map((c) => ({ value: c, label: c }))}
          value={color}
          onChange={(v) => setColor(v ?? 'grape')}
          leftSection={<ColorSwatch color={DEFAULT_THEME.colors[color]?.[6] ?? '#888'} size={14} />}
          renderOption={({ option }) => (
            <Group gap="xs">
              <ColorSwatch color={DEFAULT_THEME.colors[option.value]?.[6] ?? '#888'} size={14} />
              <Text size="sm">{option.label}</Text>
            </Group>
          )}
        />
      </SimpleGrid>
      <Switch
        label="Закрепить для профиля (закреплённый ранее пакет этого профиля открепится)"
        checked={pinned}
        onChange={(e) => setPinned(e.currentTarget.checked)}
      />
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose}>
          Отмена
        </Button>
        <Button onClick={() => void submit()} loading={save.isPending}>
          Сохранить
        </Button>
      </Group>
    </Stack>
  );
}
