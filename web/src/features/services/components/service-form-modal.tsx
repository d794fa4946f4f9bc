import { lazy, Suspense, useMemo, useState } from 'react';
import {
  ActionIcon,
  Alert,
  Button,
  Divider,
  FileInput,
  Group,
  Modal,
  MultiSelect,
  NumberInput,
  SegmentedControl,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { IconPhoto, IconPlus, IconTrash } from '@tabler/icons-react';
import { DateType, participationTypeLabels } from '@edu/domain/common/codes';
import { Messages } from '@edu/domain/common/messages';
import { SERVICE_TITLE_MAX, type Service } from '@edu/domain/services/service';
import {
  followStart,
  saveServiceBody,
  SERVICE_TIME,
  ServiceFormMessages,
  type SaveServiceBody,
  type ServiceFormOptions,
} from '@edu/domain/services/service-form';
import { errorMessage, isApiError } from '../../../lib/api-client';
import type { ServiceSubtypeItem, ServiceTypeItem, ProfileItem } from '../../../lib/dictionaries';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { submitChecked } from '../../../lib/submit-checked';
import { usePublishService, useSaveService, useUploadServiceImage } from '../api/manage-service';

// The editor (tiptap) loads with the form, not with the services list.
const RichTextEditor = lazy(() => import('../../../components/rich-text-editor').then((m) => ({ default: m.RichTextEditor })));

/** Times of the pickers: 8:00 to 21:30 in 30-minute steps, 24-hour clock (spec 02 §5). */
const TIMES = Array.from({ length: (SERVICE_TIME.lastHour - SERVICE_TIME.firstHour + 1) * 2 }, (_, i) => {
  const h = SERVICE_TIME.firstHour + Math.floor(i / 2);
  return `${String(h).padStart(2, '0')}:${i % 2 ? '30' : '00'}`;
});

const PARTICIPATION = Object.entries(participationTypeLabels).map(([value, label]) => ({ value, label }));
const DATE_TYPES = [
  { value: String(DateType.specific), label: 'Конкретные даты' },
  { value: String(DateType.permanent), label: 'Постоянно' },
  { value: String(DateType.open), label: 'Открытые даты' },
];

type TypeWithFlags = ServiceTypeItem & { is_contract_needed?: boolean; template_certificate_id?: number | null; template_page_id?: number | null };
type SubtypeWithFlags = ServiceSubtypeItem;

interface SectionDraft {
  id?: number;
  title: string;
}

interface Draft {
  title: string;
  description: string;
  price: number | string;
  points: number | string;
  max_participants: number | string;
  dict_type_id: string | null;
  dict_subtype_id: string | null;
  participation_type: string | null;
  date_type: string;
  beginDate: string;
  beginTime: string | null;
  endDate: string;
  endTime: string | null;
  sections: SectionDraft[];
  profiles: string[];
  leadings: string[];
  moodle_id: number | string;
  hours: number | string;
  days: number | string;
  template_certificate_id: string | null;
  template_program_id: string | null;
  template_participation_id: string | null;
  joomla_article_template_id: string | null;
  joomla_intro_html: string;
  joomla_additional_html: string;
  joomla_video_iframe: string;
  is_visible: boolean;
  is_done: boolean;
  is_thesis_needed: boolean;
  /** Sent after the service is saved, by its own call. */
  image: File | null;
}

const idOrNull = (v: number | null | undefined) => (v ? String(v) : null);

function draftOf(service: Service | null, typeId: number | null, subtypeId: number | null, types: TypeWithFlags[], subtypes: SubtypeWithFlags[]): Draft {
  if (service) {
    const [bd, bt] = (service.begda ?? ' ').split(' ');
    const [ed, et] = (service.endda ?? ' ').split(' ');
    return {
      title: service.title,
      description: service.description ?? '',
      price: service.price,
      points: service.points,
      max_participants: service.max_participants,
      dict_type_id: String(service.dict_type_id),
      dict_subtype_id: idOrNull(service.dict_subtype_id),
      participation_type: String(service.participation_type),
      date_type: String(service.date_type),
      beginDate: bd ?? '',
      beginTime: bt ? bt.slice(0, 5) : null,
      endDate: ed ?? '',
      endTime: et ? et.slice(0, 5) : null,
      sections: service.sections.map((s) => ({ id: s.id, title: s.title })),
      profiles: service.profiles.map((p) => String(p.id)),
      leadings: service.leadings.map((l) => String(l.id)),
      moodle_id: service.moodle_id ?? '',
      hours: service.hours ?? '',
      days: service.days ?? '',
      template_certificate_id: idOrNull(service.template_certificate_id),
      template_program_id: idOrNull(service.template_program_id),
      template_participation_id: idOrNull(service.template_participation_id),
      joomla_article_template_id: idOrNull(service.joomla_article_template_id),
      joomla_intro_html: service.joomla_intro_html ?? '',
      joomla_additional_html: service.joomla_additional_html ?? '',
      joomla_video_iframe: service.joomla_video_iframe ?? '',
      is_visible: service.is_visible,
      is_done: service.is_done,
      is_thesis_needed: service.is_thesis_needed,
      image: null,
    };
  }
  // A new service starts with the default templates of its service type (spec 02 §4; per type, decision 024).
  const type = types.find((t) => t.id === typeId);
  const subtype = subtypes.find((s) => s.id === subtypeId);
  return {
    title: '',
    description: '',
    price: 0,
    points: subtype?.points ?? type?.points ?? 0,
    max_participants: 0,
    dict_type_id: idOrNull(typeId),
    dict_subtype_id: idOrNull(subtypeId),
    participation_type: '1',
    date_type: String(DateType.specific),
    beginDate: '',
    beginTime: '10:00',
    endDate: '',
    endTime: '11:30',
    sections: [],
    profiles: [],
    leadings: [],
    moodle_id: '',
    hours: '',
    days: '',
    template_certificate_id: idOrNull(type?.template_certificate_id ?? null),
    template_program_id: null,
    template_participation_id: null,
    joomla_article_template_id: idOrNull(type?.template_page_id ?? null),
    joomla_intro_html: '',
    joomla_additional_html: '',
    joomla_video_iframe: '',
    is_visible: true,
    is_done: false,
    is_thesis_needed: false,
    image: null,
  };
}

const num = (v: number | string) => (v === '' ? null : Number(v));
const stamp = (date: string, time: string | null) => (date ? `${date} ${time ?? '10:00'}:00` : null);

function bodyOf(d: Draft, contract: boolean): SaveServiceBody {
  const dated = d.date_type !== String(DateType.permanent);
  return {
    title: d.title,
    description: d.description || null,
    price: Number(d.price || 0),
    points: Number(d.points || 0),
    max_participants: Number(d.max_participants || 0),
    dict_type_id: d.dict_type_id ? Number(d.dict_type_id) : (undefined as unknown as number),
    dict_subtype_id: d.dict_subtype_id ? Number(d.dict_subtype_id) : null,
    participation_type: d.participation_type ? Number(d.participation_type) : (undefined as unknown as number),
    date_type: Number(d.date_type),
    begda: dated ? stamp(d.beginDate, d.beginTime) : null,
    endda: dated ? stamp(d.endDate, d.endTime) : null,
    sections: d.sections.map((s) => ({ ...(s.id ? { id: s.id } : {}), title: s.title })),
    profiles: d.profiles.map(Number),
    leadings: d.leadings.map(Number),
    moodle_id: num(d.moodle_id),
    hours: contract ? num(d.hours) : null,
    days: contract ? num(d.days) : null,
    template_certificate_id: d.template_certificate_id ? Number(d.template_certificate_id) : null,
    template_program_id: d.template_program_id ? Number(d.template_program_id) : null,
    template_participation_id: d.template_participation_id ? Number(d.template_participation_id) : null,
    joomla_article_template_id: d.joomla_article_template_id ? Number(d.joomla_article_template_id) : null,
    joomla_intro_html: d.joomla_intro_html || null,
    joomla_additional_html: d.joomla_additional_html || null,
    joomla_video_iframe: d.joomla_video_iframe || null,
    is_visible: d.is_visible,
    is_done: d.is_done,
    is_thesis_needed: d.is_thesis_needed,
  };
}

export interface ServiceFormModalProps {
  opened: boolean;
  /** The service to edit, or null for a new one of the chosen type and subtype. */
  service: Service | null;
  typeId: number | null;
  subtypeId: number | null;
  types: TypeWithFlags[];
  subtypes: SubtypeWithFlags[];
  profiles: ProfileItem[];
  options: ServiceFormOptions | undefined;
  onClose: () => void;
}

/** The service edit modal (spec 02 §3 fields, §5 validation); after saving: the image, then the site. */
export function ServiceFormModal(props: ServiceFormModalProps) {
  return (
    <Modal
      opened={props.opened}
      onClose={props.onClose}
      title={props.service ? props.service.title : 'Новая услуга'}
      size="xl"
      data-testid="service-form-modal"
    >
      {props.opened && <ServiceForm key={props.service?.id ?? 'new'} {...props} />}
    </Modal>
  );
}

function ServiceForm({ service, typeId, subtypeId, types, subtypes, profiles, options, onClose }: ServiceFormModalProps) {
  const form = useForm<Draft>({
    initialValues: draftOf(service, typeId, subtypeId, types, subtypes),
    // The messages stay until the next submit, as they did before this form moved to useForm.
    clearInputErrorOnChange: false,
  });
  const [newSection, setNewSection] = useState('');
  const save = useSaveService();
  const upload = useUploadServiceImage();
  const publish = usePublishService();
  const d = form.values;
  /** A field's message (from the domain's schema or the server's 422), shown under its input. */
  const errorOf = (field: string) => {
    const error = form.errors[field];
    return typeof error === 'string' ? error : undefined;
  };

  const type = types.find((t) => String(t.id) === d.dict_type_id);
  const typeSubtypes = useMemo(() => subtypes.filter((s) => String(s.dict_service_type_id) === d.dict_type_id), [subtypes, d.dict_type_id]);
  const contract = Boolean(type?.is_contract_needed);
  const dated = d.date_type !== String(DateType.permanent);
  const templateData = (list: Array<{ id: number; title: string }> | undefined) => (list ?? []).map((t) => ({ value: String(t.id), label: t.title }));

  /** The end follows the start: same length, kept on the clock grid. */
  function changeStart(date: string, time: string | null) {
    form.setValues((prev) => {
      const next: Partial<Draft> = { beginDate: date, beginTime: time };
      if (date && time) {
        const oldStart = prev.beginDate && prev.beginTime ? `${prev.beginDate} ${prev.beginTime}:00` : null;
        const oldEnd = prev.endDate && prev.endTime ? `${prev.endDate} ${prev.endTime}:00` : null;
        const end = followStart(`${date} ${time}:00`, oldStart, oldEnd);
        next.endDate = end.slice(0, 10);
        next.endTime = end.slice(11, 16);
      }
      return next;
    });
  }

  async function submit(values: Draft) {
    const body = bodyOf(values, contract);
    // The server's rules first (the domain's schema), so a missing field is shown and brought into view
    // without a round trip; a 422's field errors go under their inputs the same way.
    form.clearErrors();
    let saved = null as Service | null;
    const ok = await submitChecked(form.setErrors, saveServiceBody, body, async () => {
      const answer = await save.mutateAsync({ id: service?.id ?? null, body });
      saved = answer.data;
      return answer;
    });
    if (!ok || !saved) return;
    if (values.image) {
      try {
        const answer = await upload.mutateAsync({ id: saved.id, file: values.image });
        notifySuccess(answer.message);
      } catch (error) {
        notifyError(errorMessage(error));
      }
    }
    onClose();
    // After saving: the publication to the site (spec 02 §4); the service is saved whatever the site says.
    if (options?.cms) {
      try {
        const answer = await publish.mutateAsync(saved.id);
        notifySuccess(answer.message);
      } catch (error) {
        notifyError(isApiError(error) && error.status !== 0 ? error.message : ServiceFormMessages.joomlaError(Messages.serverError));
      }
    }
  }

  const busy = save.isPending || upload.isPending;
  // No <form> element: Enter in a field (the new section's name) does not save the service.
  return (
    <Stack gap="md">
      <TextInput
        label="Название"
        required
        {...form.getInputProps('title')}
        error={errorOf('title') || (d.title.length > SERVICE_TITLE_MAX ? ServiceFormMessages.titleMax : undefined)}
        description={`${d.title.length} / ${SERVICE_TITLE_MAX}`}
        data-autofocus
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select
          label="Тип услуги"
          required
          data={types.map((t) => ({ value: String(t.id), label: t.fdv }))}
          {...form.getInputProps('dict_type_id')}
          onChange={(v) => form.setValues({ dict_type_id: v, dict_subtype_id: null })}
          searchable
          nothingFoundMessage={Messages.nothingFound}
        />
        <Select
          label="Подтип"
          required={typeSubtypes.length > 0}
          disabled={typeSubtypes.length === 0}
          data={typeSubtypes.map((s) => ({ value: String(s.id), label: s.fdv }))}
          {...form.getInputProps('dict_subtype_id')}
        />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, xs: 3 }}>
        <NumberInput label="Цена, ₽" min={0} decimalScale={2} thousandSeparator=" " {...form.getInputProps('price')} />
        <NumberInput label="Баллы" min={0} allowDecimal={false} {...form.getInputProps('points')} />
        <NumberInput label="Мест" description="0 — по умолчанию 27" min={0} allowDecimal={false} {...form.getInputProps('max_participants')} />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select label="Формат участия" required data={PARTICIPATION} {...form.getInputProps('participation_type')} />
        <Stack gap={4} data-field>
          <Text size="sm" fw={500}>
            Даты проведения
          </Text>
          <SegmentedControl data={DATE_TYPES} {...form.getInputProps('date_type', { withError: false })} fullWidth size="xs" />
          {errorOf('date_type') && (
            <Text size="xs" c="red" data-field-error>
              {errorOf('date_type')}
            </Text>
          )}
        </Stack>
      </SimpleGrid>
      {dated && (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <Group gap="xs" grow align="flex-start">
            <TextInput
              type="date"
              label="Начало"
              value={d.beginDate}
              onChange={(e) => changeStart(e.currentTarget.value, d.beginTime)}
              error={errorOf('begda')}
              aria-label="Дата начала"
            />
            <Select label="Время" data={TIMES} value={d.beginTime} onChange={(v) => changeStart(d.beginDate, v)} aria-label="Время начала" searchable />
          </Group>
          <Group gap="xs" grow align="flex-start">
            <TextInput
              type="date"
              label="Окончание"
              min={d.beginDate || undefined}
              {...form.getInputProps('endDate', { withError: false })}
              error={errorOf('endda')}
              aria-label="Дата окончания"
            />
            <Select label="Время" data={TIMES} {...form.getInputProps('endTime', { withError: false })} aria-label="Время окончания" searchable />
          </Group>
        </SimpleGrid>
      )}

      <Stack gap={6} data-field>
        <Text size="sm" fw={500}>
          Секции
        </Text>
        {d.sections.map((s, i) => (
          <Group key={s.id ?? `new-${i}`} gap="xs" wrap="nowrap">
            <TextInput
              style={{ flex: 1 }}
              {...form.getInputProps(`sections.${i}.title`, { withError: false })}
              aria-label={`Секция ${i + 1}`}
              error={Boolean(errorOf('sections')) && !s.title.trim()}
            />
            <ActionIcon variant="subtle" color="red" aria-label={`Удалить секцию ${s.title}`} onClick={() => form.removeListItem('sections', i)}>
              <IconTrash size={16} />
            </ActionIcon>
          </Group>
        ))}
        <Group gap="xs" wrap="nowrap">
          <TextInput
            style={{ flex: 1 }}
            placeholder="Название новой секции"
            value={newSection}
            onChange={(e) => setNewSection(e.currentTarget.value)}
            aria-label="Новая секция"
          />
          <Button
            variant="light"
            leftSection={<IconPlus size={16} />}
            disabled={!newSection.trim()}
            onClick={() => {
              form.insertListItem('sections', { title: newSection.trim() });
              setNewSection('');
            }}
          >
            Добавить секцию
          </Button>
        </Group>
        {errorOf('sections') && (
          <Text size="xs" c="red" data-field-error>
            {errorOf('sections')}
          </Text>
        )}
      </Stack>

      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <MultiSelect
          label="Профили"
          data={profiles.map((p) => ({ value: String(p.id), label: p.fdv }))}
          {...form.getInputProps('profiles')}
          searchable
          nothingFoundMessage={Messages.nothingFound}
        />
        <MultiSelect
          label="Ведущие"
          data={(options?.leadings ?? []).map((l) => ({ value: String(l.id), label: l.fio }))}
          {...form.getInputProps('leadings')}
          searchable
          nothingFoundMessage={Messages.nothingFound}
        />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, xs: contract ? 3 : 1 }}>
        <NumberInput label="Номер курса в Moodle" min={1} allowDecimal={false} {...form.getInputProps('moodle_id')} />
        {contract && <NumberInput label="Часы" min={0} allowDecimal={false} {...form.getInputProps('hours')} />}
        {contract && <NumberInput label="Дни" min={0} allowDecimal={false} {...form.getInputProps('days')} />}
      </SimpleGrid>
      <Suspense fallback={<Skeleton h={220} radius="md" />}>
        {/* Rich text, cleaned again by the server on saving; a long description scrolls inside the editor. */}
        <div style={{ maxHeight: 420, overflowY: 'auto' }} data-testid="service-description">
          <RichTextEditor
            label="Описание"
            ariaLabel="Описание услуги"
            value={d.description}
            onChange={(html) => form.setFieldValue('description', html)}
            error={errorOf('description')}
            minHeight={160}
          />
        </div>
      </Suspense>

      <Divider label="Документы" labelPosition="left" />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Select
          label="Шаблон сертификата"
          data={templateData(options?.templates.certificate)}
          {...form.getInputProps('template_certificate_id')}
          clearable
          nothingFoundMessage={Messages.nothingFound}
          placeholder={options?.templates.certificate.length ? 'Не выбран' : 'Шаблонов нет'}
        />
        <Select
          label="Шаблон программы"
          data={templateData(options?.templates.program)}
          {...form.getInputProps('template_program_id')}
          clearable
          placeholder={options?.templates.program.length ? 'Не выбран' : 'Шаблонов нет'}
        />
        <Select
          label="Шаблон регистрационного листа"
          data={templateData(options?.templates.regList)}
          {...form.getInputProps('template_participation_id')}
          clearable
          placeholder={options?.templates.regList.length ? 'Не выбран' : 'Шаблонов нет'}
        />
        <Select
          label="Шаблон статьи на сайте"
          data={templateData(options?.templates.page)}
          {...form.getInputProps('joomla_article_template_id')}
          clearable
          placeholder={options?.templates.page.length ? 'Не выбран' : 'Шаблонов нет'}
        />
      </SimpleGrid>

      <Divider label="Сайт" labelPosition="left" />
      {!options?.cms && (
        <Alert color="gray" variant="light" p="xs">
          {ServiceFormMessages.cmsOff}
        </Alert>
      )}
      <Textarea
        label="Анонс на сайте"
        description="Можно использовать HTML-разметку"
        autosize
        minRows={2}
        maxRows={6}
        {...form.getInputProps('joomla_intro_html', { withError: false })}
      />
      <Textarea
        label="Дополнительный текст на сайте"
        description="Можно использовать HTML-разметку"
        autosize
        minRows={2}
        maxRows={6}
        {...form.getInputProps('joomla_additional_html', { withError: false })}
      />
      <TextInput label="Видео" description="Код для вставки видео с видеохостинга" {...form.getInputProps('joomla_video_iframe', { withError: false })} />
      <FileInput
        label="Изображение"
        description={service?.image ? 'Загружено; выберите файл, чтобы заменить' : '.jpg или .png до 10 МБ'}
        accept="image/png,image/jpeg"
        leftSection={<IconPhoto size={16} />}
        {...form.getInputProps('image', { withError: false })}
        clearable
        placeholder="Выберите файл"
      />

      <Group gap="lg">
        <Switch label="Видна пользователям" {...form.getInputProps('is_visible', { type: 'checkbox', withError: false })} />
        <Switch label="Проведена" {...form.getInputProps('is_done', { type: 'checkbox', withError: false })} />
        <Switch label="Нужны тезисы" {...form.getInputProps('is_thesis_needed', { type: 'checkbox', withError: false })} />
      </Group>
      <Group justify="flex-end" gap="sm">
        <Button variant="default" onClick={onClose}>
          Отмена
        </Button>
        <Button onClick={() => void submit(form.getValues())} loading={busy} disabled={d.title.length > SERVICE_TITLE_MAX}>
          Сохранить
        </Button>
      </Group>
    </Stack>
  );
}
