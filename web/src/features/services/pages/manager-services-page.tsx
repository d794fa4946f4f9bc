import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { ActionIcon, Badge, Button, Group, Menu, Modal, Paper, Select, Stack, Text, ThemeIcon, Title, Tooltip } from '@mantine/core';
import { IconDots, IconExternalLink, IconListDetails, IconPencil, IconPlus, IconTrash, IconUsers, IconWorldUpload } from '@tabler/icons-react';
import { Link, useNavigate, useParams } from 'react-router';
import { DateType } from '@edu/domain/common/codes';
import { formatPrice } from '@edu/domain/common/format';
import { Messages } from '@edu/domain/common/messages';
import { seatLimit, serviceListQuery, type Service } from '@edu/domain/services/service';
import { ServiceFormMessages } from '@edu/domain/services/service-form';
import { FilterFields } from '../../../components/filter-fields';
import { ListPage } from '../../../components/list-page';
import type { ListColumn } from '../../../components/data-list';
import { NamedIcon } from '../../../components/named-icon';
import { useListParams } from '../../../components/use-list-params';
import { ConfirmDeleteModal } from '../../../components/confirm-delete-modal';
import { errorMessage } from '../../../lib/api-client';
import { paletteColor } from '../../../lib/colors';
import { useDictionary } from '../../../lib/dictionaries';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useNarrow } from '../../../lib/use-narrow';
import { useService } from '../../../lib/get-service';
import { useServices } from '../api/get-services';
import { useDeleteService, usePublishService, useServiceFormOptions } from '../api/manage-service';
import { ServiceFormModal } from '../components/service-form-modal';
import { SubtypePicker } from '../components/subtype-picker';
import { TypePicker } from '../components/type-picker';
import { fadedStyle } from '../../../lib/faded';

export interface ServiceEntriesSlot {
  service: Service | null;
  onClose: () => void;
}

const dateText = (s: Service) =>
  s.date_type === DateType.permanent ? 'Постоянно' : s.date_type === DateType.open ? 'Открытые даты' : (s.interval_formatted ?? 'Дата не указана');

/**
 * /manager/service[/:id] (spec 02 §2): type, then subtype, then the services table with title
 * search; done services muted; the edit modal; a link preloads one service.
 */
export function ManagerServicesPage({
  renderEntriesModal,
  renderPublicationForm,
}: {
  renderEntriesModal: (slot: ServiceEntriesSlot) => ReactNode;
  /** For a publication subtype the publication form replaces the table (spec 02 §2). */
  renderPublicationForm?: (subtypeId: number) => ReactNode;
}) {
  useDocumentTitle('Услуги');
  const params = useListParams(serviceListQuery);
  const narrow = useNarrow();
  const types = useDictionary('dict_service_types');
  const subtypes = useDictionary('dict_service_subtypes');
  const profiles = useDictionary('dict_profiles');
  const options = useServiceFormOptions();
  const navigate = useNavigate();
  const { id: routeId } = useParams();
  const preloadId = routeId && /^\d+$/.test(routeId) ? Number(routeId) : null;
  const preload = useService(preloadId);

  const typeId = params.values.dict_type_id ? Number(params.values.dict_type_id) : null;
  const subtypeId = params.values.dict_subtype_id ? Number(params.values.dict_subtype_id) : null;
  const typeSubtypes = useMemo(() => (subtypes.data ?? []).filter((s) => s.dict_service_type_id === typeId), [subtypes.data, typeId]);
  // The table is offered once a subtype is chosen (or the type has none).
  const ready = typeId !== null && (subtypeId !== null || (subtypes.data !== undefined && typeSubtypes.length === 0));

  const list = useServices(
    { dict_type_id: typeId ?? undefined, dict_subtype_id: subtypeId ?? undefined, title: params.values.title, page: params.page, per_page: params.perPage },
    ready,
  );

  const [editing, setEditing] = useState<{ service: Service | null } | null>(null);
  const [entriesOf, setEntriesOf] = useState<Service | null>(null);
  const [removing, setRemoving] = useState<Service | null>(null);
  // A link to one service opens it for editing, or says it is hidden or deleted; once closed, it is done with.
  const [handledId, setHandledId] = useState<number | null>(null);
  const pending = preloadId !== null && handledId !== preloadId;
  const preloadEdit = pending && preload.data?.is_visible ? preload.data : null;
  const notFound = pending && (preload.isError || (preload.data !== undefined && !preload.data.is_visible));
  const publish = usePublishService();
  const remove = useDeleteService();

  // The table behind the preloaded service shows its type and subtype (kept in the URL).
  useEffect(() => {
    if (!preloadEdit) return;
    params.setMany({ dict_type_id: String(preloadEdit.dict_type_id), dict_subtype_id: preloadEdit.dict_subtype_id ? String(preloadEdit.dict_subtype_id) : '' });
    // Runs when the preloaded answer arrives.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [preloadEdit?.id]);

  const closePreload = () => {
    setHandledId(preloadId);
    // Fire-and-forget: nothing waits on the route transition.
    void navigate({ pathname: '/manager/service', search: window.location.search }, { replace: true });
  };

  async function publishNow(s: Service) {
    try {
      notifySuccess((await publish.mutateAsync(s.id)).message);
    } catch (error) {
      notifyError(errorMessage(error));
    }
  }

  const columns: Array<ListColumn<Service>> = [
    {
      key: 'icon',
      label: '',
      width: 48,
      card: 'hidden',
      render: (s) => (
        <ThemeIcon color={paletteColor(s.type?.color)} variant="light" radius="md">
          <NamedIcon name={s.type?.icon ?? null} size={18} />
        </ThemeIcon>
      ),
    },
    {
      key: 'title',
      label: 'Название',
      card: 'title',
      render: (s) => (
        <Stack gap={2}>
          <Text size="sm" fw={600} lh={1.3}>
            {s.title}
          </Text>
          <Group gap={6}>
            <Text size="xs" c="dimmed">
              #{s.id}
            </Text>
            {!s.is_visible && (
              <Badge size="xs" color="gray" variant="light">
                Скрыта
              </Badge>
            )}
            {s.is_done && (
              <Badge size="xs" color="gray" variant="outline">
                Проведена
              </Badge>
            )}
            {s.joomla_status === 'error' && (
              <Tooltip label={s.joomla_error ?? ''} multiline w={260}>
                <Badge size="xs" color="red" variant="light">
                  Сайт: ошибка
                </Badge>
              </Tooltip>
            )}
            {s.joomla_status === 'pending' && (
              <Badge size="xs" color="yellow" variant="light">
                Сайт: в очереди
              </Badge>
            )}
          </Group>
        </Stack>
      ),
    },
    { key: 'dates', label: 'Даты', nowrap: true, render: dateText },
    { key: 'points', label: 'Баллы', align: 'right', render: (s) => String(s.points) },
    { key: 'price', label: 'Цена', align: 'right', nowrap: true, card: 'aside', render: (s) => formatPrice(s.price) },
    {
      key: 'participants',
      label: 'Участники',
      align: 'right',
      render: (s) => `${s.count_participants} / ${seatLimit(s.max_participants) * Math.max(1, s.sections.length)}`,
    },
    {
      key: 'actions',
      label: '',
      card: 'footer',
      nowrap: true,
      render: (s) => (
        <Group gap={4} wrap="nowrap" justify="flex-end">
          <Tooltip label="Заявки и гости" openDelay={300}>
            <ActionIcon variant="light" aria-label={`Заявки услуги ${s.title}`} onClick={() => setEntriesOf(s)}>
              <IconUsers size={18} />
            </ActionIcon>
          </Tooltip>
          <Tooltip label="Изменить" openDelay={300}>
            <ActionIcon variant="light" color="indigo" aria-label={`Изменить услугу ${s.title}`} onClick={() => setEditing({ service: s })}>
              <IconPencil size={18} />
            </ActionIcon>
          </Tooltip>
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <ActionIcon variant="subtle" color="gray" aria-label={`Действия с услугой ${s.title}`}>
                <IconDots size={18} />
              </ActionIcon>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Item
                leftSection={<IconExternalLink size={16} />}
                component="a"
                href={s.site_url ?? undefined}
                target="_blank"
                rel="noopener"
                disabled={!s.site_url}
              >
                {s.site_url ? 'Открыть на сайте' : 'На сайте не опубликована'}
              </Menu.Item>
              <Menu.Item leftSection={<IconWorldUpload size={16} />} disabled={!options.data?.cms} onClick={() => void publishNow(s)}>
                {options.data?.cms ? 'Опубликовать на сайте' : ServiceFormMessages.cmsOff}
              </Menu.Item>
              <Menu.Divider />
              <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => setRemoving(s)}>
                Удалить
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>
      ),
    },
  ];

  const modals = (
    <>
      <ServiceFormModal
        opened={editing !== null || preloadEdit !== null}
        service={editing?.service ?? preloadEdit}
        typeId={typeId}
        subtypeId={subtypeId}
        types={types.data ?? []}
        subtypes={subtypes.data ?? []}
        profiles={profiles.data ?? []}
        options={options.data}
        onClose={() => {
          setEditing(null);
          if (preloadId) closePreload();
        }}
      />
      {renderEntriesModal({ service: entriesOf, onClose: () => setEntriesOf(null) })}
      <ConfirmDeleteModal
        target={removing}
        title="Удаление услуги"
        question={ServiceFormMessages.deleteConfirm}
        remove={remove.mutateAsync}
        loading={remove.isPending}
        onClose={() => setRemoving(null)}
      />
      <Modal opened={notFound} onClose={closePreload} title={Messages.serviceNotFound} centered>
        <Text size="sm">{ServiceFormMessages.notFoundHint}</Text>
        <Group justify="flex-end" mt="lg">
          {preload.data && (
            <Button
              variant="default"
              onClick={() => {
                const hidden = preload.data ?? null;
                closePreload();
                setEditing({ service: hidden });
              }}
            >
              Открыть для редактирования
            </Button>
          )}
          <Button onClick={closePreload}>К услугам</Button>
        </Group>
      </Modal>
    </>
  );

  const pickers = (
    <Stack gap="md">
      {narrow ? (
        <Select
          label="Тип услуги"
          placeholder="Выберите тип услуги"
          data={(types.data ?? []).map((t) => ({ value: String(t.id), label: t.fdv }))}
          value={typeId ? String(typeId) : null}
          onChange={(v) => params.setMany({ dict_type_id: v ?? '', dict_subtype_id: '', title: '' })}
          allowDeselect={false}
        />
      ) : (
        <TypePicker
          types={types.data ?? []}
          value={typeId}
          onChange={(id) => params.setMany({ dict_type_id: id ? String(id) : '', dict_subtype_id: '', title: '' })}
          showAll={false}
        />
      )}
      {typeId !== null && (
        <SubtypePicker subtypes={typeSubtypes} value={subtypeId} onChange={(id) => params.setMany({ dict_subtype_id: id ? String(id) : '' })} showAll={false} />
      )}
    </Stack>
  );

  const publicationSubtype = subtypeId !== null && typeSubtypes.some((s) => s.id === subtypeId && s.is_publication);
  if (ready && publicationSubtype && renderPublicationForm && subtypeId !== null) {
    return (
      <Stack gap="lg">
        <Title order={2}>Услуги</Title>
        {pickers}
        {renderPublicationForm(subtypeId)}
        {modals}
      </Stack>
    );
  }

  if (!ready) {
    return (
      <Stack gap="lg">
        <Title order={2}>Услуги</Title>
        {pickers}
        <Paper p="xl" radius="md">
          <Text c="dimmed" ta="center">
            {typeId === null ? 'Выберите тип услуги' : 'Выберите подтип услуги'}
          </Text>
          {/* Every service at once, with the type and subtype as filters (issue 22). */}
          <Group justify="center" mt="sm">
            <Button component={Link} to="/manager/all-services" variant="subtle" leftSection={<IconListDetails size={16} />}>
              Все услуги списком
            </Button>
          </Group>
        </Paper>
        {modals}
      </Stack>
    );
  }

  return (
    <ListPage
      title="Услуги"
      actions={
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({ service: null })}>
          Добавить услугу
        </Button>
      }
      above={
        <Stack gap="md">
          {pickers}
          <FilterFields
            fields={[{ kind: 'text', name: 'title', label: 'Поиск по названию', placeholder: 'Название услуги' }]}
            // Type and subtype are chosen above; the panel counts and resets the title only.
            params={{ ...params, activeCount: params.values.title ? 1 : 0, reset: () => params.set('title', '') }}
            narrow={narrow}
          />
        </Stack>
      }
      params={params}
      list={list}
      columns={columns}
      rowStyle={(s) => fadedStyle(s.is_done)}
      testId="services"
      itemTestId="service"
      minWidth={900}
    >
      {modals}
    </ListPage>
  );
}
