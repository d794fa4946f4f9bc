import { useState } from 'react';
import {
  Anchor,
  Badge,
  Box,
  Button,
  Divider,
  Flex,
  Group,
  Loader,
  Modal,
  Paper,
  ScrollArea,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconFileSpreadsheet, IconSearch, IconUserPlus } from '@tabler/icons-react';
import { Link } from 'react-router';
import { formatPrice, formatRub } from '@edu/domain/common/format';
import { Messages } from '@edu/domain/common/messages';
import type { Entry } from '@edu/domain/entries/entry';
import { seatLimit, type Service } from '@edu/domain/services/service';
import { DataList, type ListColumn } from '../../../components/data-list';
import { ListPagination } from '../../../components/list-pagination';
import { errorMessage } from '../../../lib/api-client';
import { fieldErrorsOf } from '../../../lib/field-errors';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useNarrow } from '../../../lib/use-narrow';
import { useEntries } from '../api/get-entries';
import { useExportJournal } from '../api/export-journal';
import { useService } from '../../../lib/get-service';
import { useAddGuest, useCreateGuest, useGuests } from '../api/manage-entry';
import { GuestBadge } from './guest-badge';
import { focusFirstInvalid } from '../../../lib/focus-invalid';

/** Width of the service info column (spec 02 §2 Service entries modal). */
const SIDEBAR_PX = 500;

const entryColumns: Array<ListColumn<Entry>> = [
  {
    key: 'number',
    label: 'Номер',
    nowrap: true,
    card: 'title',
    render: (e) => (
      <Stack gap={0}>
        <Text size="sm" fw={600}>
          {e.number}
        </Text>
        <Text size="xs" c="dimmed">
          {e.created_at_formatted}
        </Text>
      </Stack>
    ),
  },
  {
    key: 'client',
    label: 'Клиент',
    card: 'title',
    render: (e) => (
      <>
        <Anchor component={Link} to={`/manager/users?id=${e.user.id}`} size="sm">
          {e.user.fio}
        </Anchor>
        <GuestBadge user={e.user} />
      </>
    ),
  },
  { key: 'section', label: 'Секция', maxWidth: 220, render: (e) => e.section?.title ?? '—' },
  {
    key: 'status',
    label: 'Статус',
    card: 'aside',
    render: (e) => (
      <Badge color={e.statusColor} variant="light" tt="none" style={{ overflow: 'visible' }}>
        {e.statusLabel}
      </Badge>
    ),
  },
  { key: 'price', label: 'Цена', nowrap: true, align: 'right', render: (e) => formatRub(e.price) },
];

/** The entries of a service and its guests (spec 02 §2): add a listed guest, or a new one. */
export function ServiceEntriesModal({ service, onClose }: { service: Service | null; onClose: () => void }) {
  const narrow = useNarrow();
  return (
    <Modal opened={service !== null} onClose={onClose} title={service ? `Заявки: ${service.title}` : ''} size="100%" data-testid="service-entries-modal">
      {service && (
        <Flex gap="lg" direction={narrow ? 'column' : 'row'} align="flex-start">
          <Box w={narrow ? '100%' : SIDEBAR_PX} style={{ flexShrink: 0 }}>
            <ServiceInfo initial={service} />
          </Box>
          <Stack gap="lg" style={{ flex: 1, minWidth: 0 }} w="100%">
            <ServiceEntries service={service} />
            <Guests service={service} />
          </Stack>
        </Flex>
      )}
    </Modal>
  );
}

function ServiceInfo({ initial }: { initial: Service }) {
  // Fresh seat counts after a guest is added.
  const fresh = useService(initial.id);
  const service = fresh.data ?? initial;
  return (
    <Paper withBorder p="md" radius="md">
      <Stack gap={6}>
        <Text fw={600}>{service.title}</Text>
        <Text size="sm" c="dimmed">
          {service.type?.fdv ?? ''}
          {service.subtype ? ` · ${service.subtype.fdv}` : ''}
        </Text>
        {service.interval_formatted && <Text size="sm">{service.interval_formatted}</Text>}
        <Text size="sm">Цена: {formatPrice(service.price)}</Text>
        <Text size="sm">
          Участников: {service.count_participants} из {seatLimit(service.max_participants) * Math.max(1, service.sections.length)}
        </Text>
        {service.sections.length > 0 && (
          <>
            <Divider my={4} />
            {service.sections.map((s) => (
              <Group key={s.id} justify="space-between" wrap="nowrap">
                <Text size="sm">{s.title}</Text>
                <Badge variant="light" color="gray">
                  {s.participants_num} / {seatLimit(service.max_participants)}
                </Badge>
              </Group>
            ))}
          </>
        )}
      </Stack>
    </Paper>
  );
}

function ServiceEntries({ service }: { service: Service }) {
  const narrow = useNarrow();
  const [page, setPage] = useState(1);
  const [perPage, setPerPage] = useState(15);
  const list = useEntries({ service_id: service.id, page, per_page: perPage });
  const journal = useExportJournal();

  async function exportJournal() {
    try {
      await journal.mutateAsync(service);
    } catch (error) {
      notifyError(errorMessage(error));
    }
  }

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={4}>Заявки</Title>
        <Button
          size="xs"
          variant="light"
          leftSection={<IconFileSpreadsheet size={16} />}
          onClick={() => void exportJournal()}
          loading={journal.isPending}
          disabled={list.data?.meta.total === 0}
        >
          Журнал в Excel
        </Button>
      </Group>
      <DataList
        rows={list.data?.data}
        columns={entryColumns}
        rowKey={(e) => e.id}
        narrow={narrow}
        loading={list.isPending}
        error={list.isError ? errorMessage(list.error) : null}
        stale={list.isPlaceholderData}
        testId="service-entries"
        itemTestId="service-entry"
        minWidth={520}
        compact
        skeletonRows={3}
      />
      <ListPagination
        meta={list.data?.meta}
        onPage={setPage}
        onPerPage={(n) => {
          setPerPage(n);
          setPage(1);
        }}
      />
    </Stack>
  );
}

/** The section choice left empty: the server puts the guest where the fewest participants are. */
const FEWEST_SECTION = 'Где меньше участников';

function Guests({ service }: { service: Service }) {
  const serviceId = service.id;
  // The section guests are added to: the operator's choice or, left empty, the one with the fewest
  // participants (spec 02 §4; the server chooses under the service's lock).
  const sections = service.sections.map((s) => ({ value: String(s.id), label: s.title }));
  const [section, setSection] = useState<string | null>(sections.length === 1 ? (sections[0]?.value ?? null) : null);
  const sectionId = section ? Number(section) : null;
  const [fio, setFio] = useState('');
  const [debounced] = useDebouncedValue(fio, 300);
  const [city, setCity] = useState<'' | '0' | '1'>('');
  const guests = useGuests(serviceId, debounced, city);
  const add = useAddGuest();
  const [adding, setAdding] = useState<number | null>(null);
  const [creating, setCreating] = useState(false);
  const rows = guests.data?.pages.flatMap((p) => p.data) ?? [];
  const total = guests.data?.pages[0]?.meta.total ?? 0;

  async function addGuest(id: number) {
    setAdding(id);
    try {
      notifySuccess((await add.mutateAsync({ service_id: serviceId, user_id: id, section_id: sectionId })).message);
      void guests.refetch();
    } catch (error) {
      notifyError(errorMessage(error));
    } finally {
      setAdding(null);
    }
  }

  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={4}>Гости</Title>
        <Button size="xs" variant="light" leftSection={<IconUserPlus size={16} />} onClick={() => setCreating((v) => !v)}>
          Новый гость
        </Button>
      </Group>
      {sections.length > 0 && (
        <Select
          label="Секция"
          placeholder={FEWEST_SECTION}
          description={section ? undefined : 'Гость попадёт в секцию, где меньше всего участников'}
          data={sections}
          value={section}
          onChange={setSection}
          clearable
          data-testid="guest-section"
        />
      )}
      {creating && (
        <NewGuestForm
          serviceId={serviceId}
          sectionId={sectionId}
          onDone={() => {
            setCreating(false);
            void guests.refetch();
          }}
        />
      )}
      <Group gap="sm" grow wrap="wrap">
        <TextInput
          leftSection={<IconSearch size={16} />}
          placeholder="Поиск гостя по ФИО"
          value={fio}
          onChange={(e) => setFio(e.currentTarget.value)}
          aria-label="Поиск гостя по ФИО"
          miw={200}
        />
        <SegmentedControl
          value={city}
          onChange={(v) => setCity(v as '' | '0' | '1')}
          data={[
            { value: '', label: 'Все' },
            { value: '1', label: 'Санкт-Петербург' },
            { value: '0', label: 'Другие города' },
          ]}
          aria-label="Город гостя"
          miw={280}
        />
      </Group>
      {guests.isPending ? (
        <Loader type="dots" />
      ) : rows.length === 0 ? (
        <Text c="dimmed" size="sm">
          {Messages.nothingFound}
        </Text>
      ) : (
        <ScrollArea.Autosize mah={360}>
          <Stack gap={4} data-testid="guests-list">
            {rows.map((g) => (
              <Paper key={g.id} withBorder p="xs" radius="sm" data-testid="guest-item">
                <Group justify="space-between" wrap="nowrap">
                  <div style={{ minWidth: 0 }}>
                    <Text size="sm" fw={500}>
                      {g.fio}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {[g.organization, g.job_title].filter(Boolean).join(', ') || '—'}
                    </Text>
                  </div>
                  <Button
                    size="xs"
                    leftSection={<IconUserPlus size={14} />}
                    loading={adding === g.id}
                    onClick={() => void addGuest(g.id)}
                    aria-label={`Добавить гостя ${g.fio}`}
                  >
                    Добавить
                  </Button>
                </Group>
              </Paper>
            ))}
          </Stack>
        </ScrollArea.Autosize>
      )}
      {guests.hasNextPage && (
        <Button variant="subtle" onClick={() => void guests.fetchNextPage()} loading={guests.isFetchingNextPage}>
          Загрузить ещё ({total - rows.length})
        </Button>
      )}
    </Stack>
  );
}

function NewGuestForm({ serviceId, sectionId, onDone }: { serviceId: number; sectionId: number | null; onDone: () => void }) {
  const create = useCreateGuest();
  const [fio, setFio] = useState('');
  const [organization, setOrganization] = useState('');
  const [jobTitle, setJobTitle] = useState('');
  const [spb, setSpb] = useState('1');
  const [errors, setErrors] = useState<Record<string, string>>({});
  return (
    <Paper withBorder p="sm" radius="md">
      <Stack gap="xs">
        <TextInput label="ФИО" required value={fio} onChange={(e) => setFio(e.currentTarget.value)} error={errors.fio} />
        <Group grow align="flex-start">
          <TextInput label="Организация" value={organization} onChange={(e) => setOrganization(e.currentTarget.value)} error={errors.organization} />
          <TextInput label="Должность" value={jobTitle} onChange={(e) => setJobTitle(e.currentTarget.value)} error={errors.job_title} />
        </Group>
        <SegmentedControl
          value={spb}
          onChange={setSpb}
          data={[
            { value: '1', label: 'Санкт-Петербург' },
            { value: '0', label: 'Другой город' },
          ]}
          aria-label="Город нового гостя"
        />
        <Group justify="flex-end">
          <Button variant="default" size="xs" onClick={onDone}>
            Отмена
          </Button>
          <Button
            size="xs"
            loading={create.isPending}
            onClick={async () => {
              setErrors({});
              try {
                notifySuccess(
                  (await create.mutateAsync({ fio, organization, job_title: jobTitle, is_spb: Number(spb), service_id: serviceId, section_id: sectionId }))
                    .message,
                );
                onDone();
              } catch (error) {
                setErrors(fieldErrorsOf(error));
                focusFirstInvalid();
                notifyError(errorMessage(error));
              }
            }}
          >
            Создать и добавить
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
