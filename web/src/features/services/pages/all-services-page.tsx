import { useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { Anchor, Badge, Button, Group, Select, Stack, Text, ThemeIcon, Tooltip } from '@mantine/core';
import { IconPencil, IconPlus, IconUsers } from '@tabler/icons-react';
import { dateRangeProblem } from '@edu/domain/common/bounds';
import { DateType } from '@edu/domain/common/codes';
import { formatPrice, formatRub } from '@edu/domain/common/format';
import { Messages } from '@edu/domain/common/messages';
import type { Service } from '@edu/domain/services/service';
import { serviceOverviewQuery, type ServiceOverviewRow } from '@edu/domain/services/service-overview';
import type { ListColumn } from '../../../components/data-list';
import type { FilterField } from '../../../components/filter-fields';
import { ListPage } from '../../../components/list-page';
import { NamedIcon } from '../../../components/named-icon';
import { RuDateFilter } from '../../../components/ru-date-filter';
import { useListParams } from '../../../components/use-list-params';
import { errorMessage } from '../../../lib/api-client';
import { paletteColor } from '../../../lib/colors';
import { useDictionary } from '../../../lib/dictionaries';
import { serviceQuery } from '../../../lib/get-service';
import { notifyError } from '../../../lib/notify';
import { useServiceFormOptions } from '../api/manage-service';
import { useServiceOverview } from '../api/get-service-overview';
import { ServiceFormModal } from '../components/service-form-modal';
import type { ServiceEntriesSlot } from './manager-services-page';
import { fadedStyle } from '../../../lib/faded';

const VISIBILITY = [
  { value: '1', label: 'Видимые' },
  { value: '0', label: 'Скрытые' },
];

const dateText = (s: ServiceOverviewRow) =>
  s.date_type === DateType.permanent ? 'Постоянно' : s.date_type === DateType.open ? 'Открытые даты' : (s.interval_formatted ?? 'Дата не указана');

/** The service's title opens it; under it the number, type and subtype, and its state. */
function TitleCell({ s, onOpen }: { s: ServiceOverviewRow; onOpen: () => void }) {
  return (
    <Group gap="sm" wrap="nowrap" align="flex-start">
      <ThemeIcon color={paletteColor(s.type?.color)} variant="light" radius="md" style={{ flexShrink: 0 }}>
        <NamedIcon name={s.type?.icon ?? null} size={18} />
      </ThemeIcon>
      <Stack gap={2} style={{ minWidth: 0 }}>
        <Anchor
          component="button"
          type="button"
          size="sm"
          fw={600}
          lh={1.3}
          ta="left"
          c="inherit"
          onClick={onOpen}
          style={{ overflowWrap: 'anywhere' }}
          aria-label={`Открыть услугу ${s.title}`}
        >
          {s.title}
        </Anchor>
        {/* The subtype names its type (the icon's colour is the type's); the type is said when there is no subtype. */}
        <Text size="xs" c="dimmed" lh={1.3} title={[s.type?.fdv, s.subtype?.fdv].filter(Boolean).join(' · ')} data-testid="overview-kind">
          #{s.id} · {s.subtype?.fdv ?? s.type?.fdv ?? '—'}
        </Text>
        {(!s.is_visible || s.is_done) && (
          <Group gap={4}>
            {!s.is_visible && (
              <Badge size="xs" color="gray" variant="light" tt="none">
                Скрыта
              </Badge>
            )}
            {s.is_done && (
              <Badge size="xs" color="gray" variant="outline" tt="none">
                Проведена
              </Badge>
            )}
          </Group>
        )}
      </Stack>
    </Group>
  );
}

const nowrap = { whiteSpace: 'nowrap' } as const;

/**
 * /manager/all-services «Все услуги» (issue 22): every service across types and subtypes in one
 * list, with search, type, subtype, visibility and date filters and the sales of each (entries,
 * paid, free places, income), sortable, all kept in the address bar. A title opens the service's
 * edit form; the people button its entries and guests.
 */
export function AllServicesPage({ renderEntriesModal }: { renderEntriesModal: (slot: ServiceEntriesSlot) => ReactNode }) {
  const params = useListParams(serviceOverviewQuery);
  const list = useServiceOverview(params.query);
  const types = useDictionary('dict_service_types');
  const subtypes = useDictionary('dict_service_subtypes');
  const profiles = useDictionary('dict_profiles');
  const options = useServiceFormOptions();

  // A row opens the full service (the form and the entries modal need all of it), fetched on demand.
  const queryClient = useQueryClient();
  const [opening, setOpening] = useState<{ id: number; what: 'edit' | 'entries' } | null>(null);
  const [editing, setEditing] = useState<{ service: Service | null } | null>(null);
  const [entriesOf, setEntriesOf] = useState<Service | null>(null);
  async function open(s: ServiceOverviewRow, what: 'edit' | 'entries') {
    setOpening({ id: s.id, what });
    try {
      const service = await queryClient.fetchQuery(serviceQuery(s.id));
      if (what === 'edit') setEditing({ service });
      else setEntriesOf(service);
    } catch (error) {
      notifyError(errorMessage(error));
    } finally {
      setOpening(null);
    }
  }

  const typeId = params.values.dict_type_id ? Number(params.values.dict_type_id) : null;
  const subtypeOptions = (subtypes.data ?? []).filter((s) => s.dict_service_type_id === typeId).map((s) => ({ value: String(s.id), label: s.fdv }));

  const filters: FilterField[] = [
    { name: 'q', label: 'Поиск', kind: 'text', placeholder: 'Название или номер' },
    {
      name: 'dict_type_id',
      label: 'Тип услуги',
      kind: 'custom',
      // A new type clears the subtype (subtypes belong to one type).
      render: (value) => (
        <Select
          label="Тип услуги"
          placeholder="Все типы"
          data={(types.data ?? []).map((t) => ({ value: String(t.id), label: t.fdv }))}
          value={value || null}
          onChange={(v) => params.setMany({ dict_type_id: v ?? '', dict_subtype_id: '' })}
          nothingFoundMessage={Messages.nothingFound}
          clearable
          searchable
        />
      ),
    },
    {
      name: 'dict_subtype_id',
      label: 'Подтип',
      kind: 'custom',
      render: (value, onChange) => (
        <Select
          label="Подтип"
          placeholder={typeId === null ? 'Сначала выберите тип' : subtypeOptions.length ? 'Все подтипы' : 'У типа нет подтипов'}
          data={subtypeOptions}
          value={value || null}
          onChange={(v) => onChange(v ?? '')}
          disabled={subtypeOptions.length === 0}
          clearable
        />
      ),
    },
    { name: 'is_visible', label: 'Видимость', kind: 'select', placeholder: 'Все', options: VISIBILITY },
    { name: 'site', label: 'Сайт', kind: 'select', placeholder: 'Все', options: [{ value: 'error', label: 'Не опубликованы: ошибка' }] },
    { name: 'date_from', label: 'С даты', kind: 'custom', render: (value, onChange) => <RuDateFilter label="С даты" value={value} onChange={onChange} /> },
    {
      name: 'date_to',
      label: 'По дату',
      kind: 'custom',
      render: (value, onChange) => <RuDateFilter label="По дату" value={value} onChange={onChange} error={dateRangeProblem(params.values.date_from, value)} />,
    },
  ];

  const loadingRow = (s: ServiceOverviewRow, what: 'edit' | 'entries') => opening?.id === s.id && opening.what === what;

  const columns: Array<ListColumn<ServiceOverviewRow>> = [
    { key: 'title', label: 'Услуга', card: 'title', sort: 'title', render: (s) => <TitleCell s={s} onOpen={() => void open(s, 'edit')} /> },
    {
      key: 'dates',
      label: 'Даты',
      sort: 'begda',
      width: 112,
      // Wraps between the day and the time, never inside a date.
      render: (s) => (
        <Text size="sm" lh={1.3} style={{ overflowWrap: 'normal' }}>
          {dateText(s)}
        </Text>
      ),
    },
    { key: 'price', label: 'Цена', sort: 'price', align: 'right', nowrap: true, card: 'aside', render: (s) => formatPrice(s.price) },
    {
      key: 'entries',
      label: 'Заявки',
      sort: 'entries',
      align: 'right',
      nowrap: true,
      // The count opens the service's entries and guests.
      render: (s) => (
        <Tooltip label="Заявки и гости" openDelay={300}>
          <Anchor
            component="button"
            type="button"
            size="sm"
            fw={600}
            onClick={() => void open(s, 'entries')}
            aria-label={`Заявки услуги ${s.title}: ${s.entries}`}
            data-testid="overview-entries"
            disabled={loadingRow(s, 'entries')}
          >
            {s.entries}
          </Anchor>
        </Tooltip>
      ),
    },
    {
      key: 'paid',
      label: 'Оплачено',
      sort: 'paid',
      align: 'right',
      nowrap: true,
      render: (s) => (
        <Text size="sm" data-testid="overview-paid">
          {s.paid}
        </Text>
      ),
    },
    {
      key: 'free',
      label: 'Свободно',
      sort: 'free',
      align: 'right',
      nowrap: true,
      render: (s) =>
        s.seats === null ? (
          <Text size="sm" c="dimmed" title="Без ограничения мест">
            —
          </Text>
        ) : (
          <Text size="sm" c={s.free === 0 ? 'red.7' : undefined} data-testid="overview-free" style={nowrap}>
            {s.free} из {s.seats}
          </Text>
        ),
    },
    {
      key: 'income',
      label: 'Доход',
      sort: 'income',
      align: 'right',
      nowrap: true,
      render: (s) => (
        <Text size="sm" fw={500} data-testid="overview-income">
          {formatRub(s.income)}
        </Text>
      ),
    },
    {
      // On cards only: in the table the title opens the form and the entries count the entries.
      key: 'actions',
      label: '',
      card: 'footer',
      tableHidden: true,
      nowrap: true,
      render: (s) => (
        <Group gap="xs" wrap="nowrap" justify="flex-end">
          <Button variant="light" size="xs" leftSection={<IconUsers size={16} />} loading={loadingRow(s, 'entries')} onClick={() => void open(s, 'entries')}>
            Заявки и гости
          </Button>
          <Button
            variant="light"
            color="indigo"
            size="xs"
            leftSection={<IconPencil size={16} />}
            loading={loadingRow(s, 'edit')}
            onClick={() => void open(s, 'edit')}
          >
            Изменить
          </Button>
        </Group>
      ),
    },
  ];

  return (
    <ListPage
      title="Все услуги"
      actions={
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({ service: null })}>
          Добавить услугу
        </Button>
      }
      filters={filters}
      params={params}
      list={list}
      columns={columns}
      rowStyle={(s) => fadedStyle(s.is_done)}
      testId="all-services"
      itemTestId="overview"
      minWidth={860}
    >
      <ServiceFormModal
        opened={editing !== null}
        service={editing?.service ?? null}
        typeId={typeId}
        subtypeId={params.values.dict_subtype_id ? Number(params.values.dict_subtype_id) : null}
        types={types.data ?? []}
        subtypes={subtypes.data ?? []}
        profiles={profiles.data ?? []}
        options={options.data}
        onClose={() => setEditing(null)}
      />
      {renderEntriesModal({ service: entriesOf, onClose: () => setEntriesOf(null) })}
    </ListPage>
  );
}
