import { lazy, Suspense, type ReactNode } from 'react';
import { Alert, FileInput, Group, Paper, Select, SimpleGrid, Skeleton, Stack, Text, TextInput } from '@mantine/core';
import { IconPaperclip } from '@tabler/icons-react';
import { formatRub } from '@edu/domain/common/format';
import { isPaidStatus } from '@edu/domain/common/codes';
import type { Service } from '@edu/domain/services/service';
import type { Entry } from '@edu/domain/entries/entry';
import { chooseSlot, PACKAGE_PUBLICATION_AUTHORS, slotCoverText, type PublicationSlot } from '@edu/domain/publications/publication';
import { HtmlContent } from '../../../components/html-content';
import { useDictionary } from '../../../lib/dictionaries';
import { fieldErrorsOf } from '../../../lib/field-errors';
import { focusFirstInvalid } from '../../../lib/focus-invalid';
import { errorMessage } from '../../../lib/api-client';
import { notifyError } from '../../../lib/notify';
import { usePublicationServices } from '../api/get-publication-services';
import { maxAuthors, priceFor, usePrices } from '../api/get-prices';
import { useReleases } from '../api/get-releases';
import {
  INTERNET_SUBTYPE_ID,
  PublicationMessages,
  publicationTypeOptions,
  TEXT_MAX_FORMATTED,
  TEXT_MIN_PLAIN,
  type Publication,
  type PublicationAuthor,
} from '../api/types';
import { AuthorsField } from './authors-field';
import { PublicationFileLink } from './publication-file-link';
import { plainText, textProblem } from './text-stats';

const RichTextEditor = lazy(() => import('../../../components/rich-text-editor').then((m) => ({ default: m.RichTextEditor })));

const ACCEPT = 'application/pdf,image/jpeg,image/png';
const MAX_FILE = 10 * 1024 * 1024;

export interface PublicationFormState {
  service_id: string | null;
  dict_category_id: string | null;
  release_id: string | null;
  type: string | null;
  title: string;
  text: string;
  file: File | null;
  additionalFiles: File[];
  authors: FormAuthor[];
}

/** An author in the form: a saved one has an id, a picked one only the user id. */
export type FormAuthor = Pick<PublicationAuthor, 'user_id' | 'fio'> & { id?: number };

export function initialState(p: Publication | null, me: FormAuthor | null, serviceId: number | null = null): PublicationFormState {
  return {
    service_id: p?.service ? String(p.service.id) : serviceId ? String(serviceId) : null,
    dict_category_id: p?.dict_category_id ? String(p.dict_category_id) : null,
    release_id: p?.release_id ? String(p.release_id) : null,
    type: p?.type ? String(p.type) : null,
    title: p?.title ?? '',
    text: p?.text ?? '',
    file: null,
    additionalFiles: [],
    authors: p?.authors ?? (me ? [me] : []),
  };
}

interface PublicationFormProps {
  publication: Publication | null;
  value: PublicationFormState;
  onChange: (next: PublicationFormState) => void;
  errors: Record<string, string>;
  readOnly?: boolean;
  /** Operators may change the service of an existing publication (the release is then cleared). */
  serviceEditable?: boolean;
  /** Adds an author: the form keeps it (create) or the operator saves it at once. */
  onAddAuthor?: (author: { id: number; fio: string }) => void;
  /** Only the services of this subtype are offered. */
  subtypeId?: number | null;
  /** Shown under the form (buttons). */
  footer?: ReactNode;
  /** The entry bought before that the article is for: its service is fixed and its payment covers the article. */
  entry?: Entry | null;
  /** The client's entries still without their article (create): the server puts the publication there first. */
  slots?: PublicationSlot[];
}

function fileError(file: File | null): string | null {
  if (!file) return null;
  if (!['application/pdf', 'image/jpeg', 'image/png'].includes(file.type)) return 'Допустимы только файлы pdf, jpg или png';
  if (file.size > MAX_FILE) return 'Файл больше 10 МБ';
  return null;
}

/** What the form checks before sending (the server checks the same and answers 422). */
export function validateForm(v: PublicationFormState, service: Service | undefined): Record<string, string> {
  const errors: Record<string, string> = {};
  const internet = service?.dict_subtype_id === INTERNET_SUBTYPE_ID;
  const hasFile = Boolean(service?.subtype?.publication_has_file);
  if (!v.service_id) errors.service_id = PublicationMessages.chooseService;
  if (!v.dict_category_id) errors.dict_category_id = PublicationMessages.chooseCategory;
  if (internet && !v.type) errors.type = PublicationMessages.chooseType;
  if (!internet && service && !v.release_id) errors.release_id = PublicationMessages.chooseRelease;
  if (!v.title.trim()) errors.title = PublicationMessages.enterTitle;
  if (hasFile) {
    if (!v.file) errors.file = PublicationMessages.attachFile;
  } else if (!plainText(v.text).trim()) errors.text = PublicationMessages.enterText;
  else if (internet) {
    const problem = textProblem(v.text);
    if (problem) errors.text = problem;
  }
  if (v.authors.length === 0) errors.authors = PublicationMessages.chooseAuthorsNum;
  const fe = fileError(v.file) ?? v.additionalFiles.map(fileError).find(Boolean);
  if (fe) errors.file = fe;
  return errors;
}

/** The multipart body of a save (spec 03 §7: file, additionalFiles[] only on create, other fields). */
export function toFormData(v: PublicationFormState, create: boolean): FormData {
  const form = new FormData();
  if (v.service_id) form.set('service_id', v.service_id);
  if (v.dict_category_id) form.set('dict_category_id', v.dict_category_id);
  if (v.release_id) form.set('release_id', v.release_id);
  if (v.type) form.set('type', v.type);
  form.set('title', v.title.trim());
  form.set('text', v.text);
  if (v.file) form.set('file', v.file);
  if (create) {
    for (const f of v.additionalFiles) form.append('additionalFiles[]', f);
    // The co-authors besides the creator (the first author).
    form.set('authors', JSON.stringify(v.authors.slice(1).map((a) => ({ user_id: a.user_id, fio: a.fio }))));
    form.set('authors_num', String(v.authors.length));
  }
  return form;
}

/** Server 422 field errors (the first one brought into view), and the notice. */
export function handleSaveError(error: unknown, setErrors: (e: Record<string, string>) => void) {
  const fields = fieldErrorsOf(error);
  setErrors(fields);
  if (Object.keys(fields).length > 0) focusFirstInvalid();
  notifyError(errorMessage(error));
}

/**
 * The publication form (spec 03 §3, §5): service, rubric, release (or type for internet
 * publications), title, rich text or file, additional files on create, authors, the live counter
 * of plain characters and the price for the number of authors.
 */
export function PublicationForm({
  publication,
  value: v,
  onChange,
  errors,
  readOnly,
  serviceEditable,
  onAddAuthor,
  subtypeId: onlySubtype = null,
  footer,
  entry = null,
  slots = [],
}: PublicationFormProps) {
  const allServices = usePublicationServices();
  const services = { data: (allServices.data ?? []).filter((s) => onlySubtype === null || s.dict_subtype_id === onlySubtype) };
  const categories = useDictionary('dict_publication_categories');
  const create = publication === null;
  const service = (services.data ?? []).find((s) => String(s.id) === v.service_id);
  const subtypeId = service?.dict_subtype_id ?? publication?.service?.dict_subtype_id ?? null;
  const internet = subtypeId === INTERNET_SUBTYPE_ID;
  const releases = useReleases(subtypeId, subtypeId !== null && !internet);
  const prices = usePrices(subtypeId);
  // Subtypes with a file take the file; the text is then optional (it makes the uniqueness check possible).
  const hasFile = Boolean(service?.subtype?.publication_has_file ?? publication?.publication_has_file);
  const set = (patch: Partial<PublicationFormState>) => onChange({ ...v, ...patch });

  const plain = plainText(v.text).length;
  // The text rule shows once something is typed (an empty form is not an error yet).
  const problem = internet && v.text ? textProblem(v.text) : null;
  const price = priceFor(prices.data, v.authors.length);
  // Where the server will put a new publication (the same rule, chooseSlot): the slot, or a new entry and why.
  const slot = create && !entry && service ? chooseSlot(slots, service, Math.max(1, v.authors.length)) : { use: null, tooSmall: null };
  const releaseOptions = (releases.data ?? []).map((r) => ({ value: String(r.id), label: r.title }));
  if (publication?.release && !releaseOptions.some((o) => o.value === String(publication.release?.id))) {
    releaseOptions.unshift({ value: String(publication.release.id), label: publication.release.title });
  }

  return (
    <Stack gap="sm">
      <Select
        label="Услуга"
        placeholder="Выберите публикацию"
        required
        disabled={readOnly || (!create && !serviceEditable) || entry !== null}
        data={(services.data ?? []).map((s) => ({ value: String(s.id), label: s.title }))}
        value={v.service_id}
        onChange={(id) => set({ service_id: id, release_id: null })}
        error={errors.service_id}
        allowDeselect={false}
        // A long service title cut on a phone stays whole on hover.
        title={service?.title}
        data-testid="publication-service"
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <Select
          label="Рубрика"
          placeholder="Выберите рубрику"
          required
          disabled={readOnly}
          data={(categories.data ?? []).map((c) => ({ value: String(c.id), label: c.fdv }))}
          value={v.dict_category_id}
          onChange={(id) => set({ dict_category_id: id })}
          error={errors.dict_category_id}
        />
        {internet ? (
          <Select
            label="Тип"
            placeholder="Выберите тип"
            required
            disabled={readOnly}
            data={publicationTypeOptions}
            value={v.type}
            onChange={(t) => set({ type: t })}
            error={errors.type}
          />
        ) : (
          <Select
            label="Выпуск"
            placeholder={subtypeId === null ? 'Сначала выберите услугу' : 'Выберите выпуск'}
            required
            disabled={readOnly || subtypeId === null}
            data={releaseOptions}
            value={v.release_id}
            onChange={(id) => set({ release_id: id })}
            error={errors.release_id}
          />
        )}
      </SimpleGrid>
      <TextInput
        label="Название"
        required
        disabled={readOnly}
        value={v.title}
        onChange={(e) => set({ title: e.currentTarget.value })}
        error={errors.title}
        maxLength={500}
      />
      {!readOnly && hasFile && (
        <FileInput
          label="Файл публикации"
          required={!publication?.file}
          placeholder={publication?.file ? publication.file.name : 'pdf, jpg или png до 10 МБ'}
          accept={ACCEPT}
          leftSection={<IconPaperclip size={16} />}
          value={v.file}
          onChange={(f) => set({ file: f })}
          clearable
          error={errors.file}
        />
      )}
      {!readOnly && publication?.file && !hasFile && <PublicationFileLink file={publication.file} />}
      {readOnly && publication?.file && v.text ? <PublicationFileLink file={publication.file} /> : null}
      <Stack gap={4}>
        {readOnly ? (
          v.text ? (
            <Paper withBorder p="sm" radius="md" mah={420} style={{ overflowY: 'auto' }}>
              <HtmlContent html={v.text} data-testid="publication-text" />
            </Paper>
          ) : publication?.file ? (
            <PublicationFileLink file={publication.file} />
          ) : null
        ) : (
          <Suspense fallback={<Skeleton h={260} radius="md" />}>
            {/* A long article scrolls inside the editor instead of stretching the modal. */}
            <div style={{ maxHeight: 480, overflowY: 'auto' }}>
              <RichTextEditor
                label={hasFile ? 'Текст (необязательно: для проверки уникальности)' : 'Текст'}
                ariaLabel="Текст публикации"
                value={v.text}
                onChange={(html) => set({ text: html })}
                error={errors.text ?? problem}
                minHeight={260}
              />
            </div>
          </Suspense>
        )}
        {!readOnly && (
          <Text size="xs" c={problem ? 'red' : 'dimmed'} data-testid="publication-counter">
            Символов без разметки: {plain}
            {internet ? ` (минимум ${TEXT_MIN_PLAIN}); с разметкой: ${v.text.length} из ${TEXT_MAX_FORMATTED}` : ''}
          </Text>
        )}
      </Stack>
      {create && !readOnly && (
        <FileInput
          label="Дополнительные файлы"
          placeholder="pdf, jpg или png до 10 МБ"
          accept={ACCEPT}
          multiple
          clearable
          leftSection={<IconPaperclip size={16} />}
          value={v.additionalFiles}
          onChange={(files) => set({ additionalFiles: files })}
          error={errors.additionalFiles}
        />
      )}
      <AuthorsField
        authors={v.authors}
        max={entry?.package_enrollment ? PACKAGE_PUBLICATION_AUTHORS : create && prices.data?.length ? maxAuthors(prices.data) : undefined}
        disabled={readOnly || !onAddAuthor}
        onAdd={(u) => onAddAuthor?.(u)}
        onRemove={create ? (i) => set({ authors: v.authors.filter((_, k) => k !== i) }) : undefined}
        error={errors.authors}
      />
      {entry && (isPaidStatus(entry.status) || entry.package_enrollment) ? (
        // Bought before (alone or in a package): nothing more is charged for the article.
        <Paper withBorder p="sm" radius="md" data-testid="publication-entry-paid">
          <Text size="sm">
            {isPaidStatus(entry.status)
              ? PublicationMessages.paidByEntry(entry.number)
              : `Входит в пакет услуг «${entry.package_enrollment?.title ?? ''}», заявка № ${entry.number}`}
          </Text>
          {entry.package_enrollment && (
            <Text size="xs" c="dimmed">
              {PublicationMessages.packageOneAuthor}
            </Text>
          )}
        </Paper>
      ) : slot.use ? (
        // Paid for already (a package's publication): the article goes there, nothing is charged again.
        <Paper withBorder p="sm" radius="md" bg="var(--mantine-color-teal-light)" data-testid="publication-slot">
          <Text size="sm" fw={600}>
            {slotCoverText(slot.use)}
          </Text>
          <Text size="xs" c="dimmed">
            Публикация будет добавлена к этой заявке, новая заявка не создаётся.
          </Text>
        </Paper>
      ) : (
        (create || price) &&
        subtypeId !== null && (
          <Paper withBorder p="sm" radius="md">
            {slot.tooSmall && (
              // Why this one costs money although a paid publication is waiting.
              <Alert color="yellow" p="xs" mb="xs" data-testid="publication-slot-extra">
                {PublicationMessages.slotTooFewAuthors(slot.tooSmall, v.authors.length, false)}
              </Alert>
            )}
            <Group justify="space-between">
              <Text size="sm">Стоимость публикации ({v.authors.length} авт.)</Text>
              <Text fw={700} data-testid="publication-price">
                {price ? formatRub(price.price) : prices.isPending ? '…' : '—'}
              </Text>
            </Group>
          </Paper>
        )
      )}
      {errors.form && <Alert color="red">{errors.form}</Alert>}
      {footer}
    </Stack>
  );
}
