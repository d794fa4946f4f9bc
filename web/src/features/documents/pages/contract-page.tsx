import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { Affix, Alert, Anchor, Badge, Button, Group, Paper, SimpleGrid, Skeleton, Stack, Stepper, Text, TextInput, Textarea, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useMediaQuery } from '@mantine/hooks';
import { IconAlertTriangle, IconDeviceFloppy, IconLock, IconPrinter } from '@tabler/icons-react';
import { Link } from 'react-router';
import type { z } from 'zod';
import { Messages } from '@edu/domain/common/messages';
import { fieldErrorsFromZod } from '@edu/domain/common/validation';
import {
  DocumentMessages,
  identityDocumentBody,
  profileExtrasBody,
  REQUIRED_DOCUMENT_KINDS,
  WIZARD_STEPS,
  type ContractDataState,
  type DocumentKind,
  type FileRecord,
  type IdentityDocument,
  type ProfileExtras,
} from '@edu/domain/documents/documents';
import type { CurrentUser } from '@edu/domain/users/current-user';
import type { printLinkAnswer } from '@edu/domain/documents/print-answers';
import { api, errorMessage, isApiError } from '../../../lib/api-client';
import { useCurrentUser } from '../../../lib/current-user';
import { firstErrors } from '../../../lib/field-errors';
import { focusFirstInvalid } from '../../../lib/focus-invalid';
import { notifyError, notifyInfo, notifySuccess } from '../../../lib/notify';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { isoToRuDate, MaskedInput, ruDateToIso } from '../../../components/masked-input';
import { useContractData } from '../api/get-contract-data';
import { useDocuments } from '../api/get-documents';
import { useDeleteFile } from '../api/delete-file';
import { useIdentityDocument, useSaveIdentityDocument } from '../api/identity-document';
import { useProfileExtras, useSaveProfileExtras } from '../api/profile-extras';
import { useSetContractStep } from '../api/set-contract-step';
import { useUploadDocuments, type PendingFiles } from '../api/upload-documents';
import { DocumentKindField } from '../components/document-kind-field';

export interface ContractPageProps {
  /** Step 3: the client's contracts (print, signed scan, status), from the contracts feature. */
  contractStep: (ctx: { user: CurrentUser; state: ContractDataState }) => ReactNode;
}

/** /user/contract (spec 01 §2 Contract data wizard): documents, consent, contract. */
export function ContractPage({ contractStep }: ContractPageProps) {
  useDocumentTitle('Данные для договора');
  const { data: user } = useCurrentUser();
  if (!user) return null;
  return (
    <Stack gap="lg" pb={80}>
      <Title order={2}>Данные для договора</Title>
      {user.is_documents_upload_allowed ? (
        <Wizard key={user.id} user={user} contractStep={contractStep} />
      ) : (
        <Alert color="yellow" icon={<IconAlertTriangle />} data-testid="documents-not-allowed">
          {DocumentMessages.onlyForCourses}
        </Alert>
      )}
    </Stack>
  );
}

function Wizard({ user, contractStep }: { user: CurrentUser; contractStep: ContractPageProps['contractStep'] }) {
  const state = useContractData(user.id);
  const extras = useProfileExtras(user.id);
  const passport = useIdentityDocument(user.id);
  const docs = useDocuments(user.id);
  if (!state.data || !extras.data || passport.isPending || !docs.data) {
    return (
      <Stack>
        <Skeleton h={60} radius="md" />
        <Skeleton h={220} radius="md" />
        <Skeleton h={220} radius="md" />
      </Stack>
    );
  }
  return <WizardForms user={user} state={state.data} extras={extras.data} passport={passport.data ?? null} saved={docs.data} contractStep={contractStep} />;
}

interface ExtrasValues {
  address: string;
  birthday: string;
  snils: string;
}
interface PassportValues {
  number: string;
  date: string;
  issued_by: string;
}

function changedFields<T extends object>(values: T, initial: T): number {
  return (Object.keys(values) as Array<keyof T>).filter((k) => String(values[k] ?? '') !== String(initial[k] ?? '')).length;
}

function WizardForms(props: {
  user: CurrentUser;
  state: ContractDataState;
  extras: ProfileExtras;
  passport: IdentityDocument | null;
  saved: Record<DocumentKind, FileRecord[]>;
  contractStep: ContractPageProps['contractStep'];
}) {
  const { user, state, passport, saved } = props;
  const [view, setView] = useState(() => Math.min(state.contract_step, state.max_step));
  const [pending, setPending] = useState<PendingFiles>({});
  const [docErrors, setDocErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const locked = Boolean(passport?.locked);
  const narrow = useMediaQuery('(max-width: 575px)') ?? false;

  const extrasInitial = useMemo<ExtrasValues>(
    () => ({ address: props.extras.address ?? '', birthday: isoToRuDate(props.extras.birthday), snils: props.extras.snils ?? '' }),
    [props.extras],
  );
  const passportInitial = useMemo<PassportValues>(
    () => ({ number: passport?.number ?? '', date: isoToRuDate(passport?.date), issued_by: passport?.issued_by ?? '' }),
    [passport],
  );
  const extrasForm = useForm<ExtrasValues>({
    mode: 'controlled',
    initialValues: extrasInitial,
    validate: (v) => {
      const parsed = profileExtrasBody.safeParse({ ...v, birthday: ruDateToIso(v.birthday) });
      return parsed.success ? {} : firstErrors(fieldErrorsFromZod(parsed.error));
    },
  });
  const passportForm = useForm<PassportValues>({
    mode: 'controlled',
    initialValues: passportInitial,
    validate: (v) => {
      const parsed = identityDocumentBody.safeParse({ ...v, date: ruDateToIso(v.date) });
      return parsed.success ? {} : firstErrors(fieldErrorsFromZod(parsed.error));
    },
  });

  const saveExtras = useSaveProfileExtras();
  const savePassport = useSaveIdentityDocument();
  const upload = useUploadDocuments();
  const remove = useDeleteFile();
  const setStep = useSetContractStep();
  const contractData = useContractData(user.id);
  const live = contractData.data ?? state;

  const extrasDirty = changedFields(extrasForm.values, extrasInitial);
  const passportDirty = locked ? 0 : changedFields(passportForm.values, passportInitial);
  const pendingCount = Object.values(pending).reduce((n, list) => n + (list?.length ?? 0), 0);
  const unsaved = extrasDirty + passportDirty + pendingCount;

  // Leaving the page with unsaved changes asks first.
  useEffect(() => {
    if (unsaved === 0) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [unsaved]);

  /** Save: every sub-form with changes saves; true when all succeeded. */
  async function saveAll(): Promise<boolean> {
    setSaving(true);
    let ok = true;
    try {
      if (extrasDirty > 0) {
        if (extrasForm.validate().hasErrors) ok = false;
        else {
          try {
            const v = extrasForm.values;
            const answer = await saveExtras.mutateAsync({ userId: user.id, address: v.address.trim(), birthday: ruDateToIso(v.birthday), snils: v.snils });
            const next = { address: answer.data.address ?? '', birthday: isoToRuDate(answer.data.birthday), snils: answer.data.snils ?? '' };
            extrasForm.setInitialValues(next);
            extrasForm.setValues(next);
          } catch (error) {
            ok = false;
            if (isApiError(error) && error.status === 422) extrasForm.setErrors(firstErrors(error.errors));
            else notifyError(errorMessage(error));
          }
        }
      }
      if (passportDirty > 0) {
        if (passportForm.validate().hasErrors) ok = false;
        else {
          try {
            const v = passportForm.values;
            await savePassport.mutateAsync({ user_id: user.id, number: v.number, date: ruDateToIso(v.date), issued_by: v.issued_by.trim() });
          } catch (error) {
            ok = false;
            if (isApiError(error) && error.status === 422) {
              passportForm.setErrors(firstErrors(error.errors));
              notifyError(error.message);
            } else notifyError(errorMessage(error));
          }
        }
      }
      if (pendingCount > 0) {
        try {
          await upload.mutateAsync({ userId: user.id, files: pending });
          setPending({});
          setDocErrors({});
        } catch (error) {
          ok = false;
          if (isApiError(error) && error.status === 422) setDocErrors(firstErrors(error.errors));
          notifyError(errorMessage(error));
        }
      }
      if (!ok) {
        focusFirstInvalid();
        notifyError(Messages.required);
        return false;
      }
      notifySuccess(DocumentMessages.dataSaved);
      const fresh = await contractData.refetch();
      if (fresh.data?.valid) notifySuccess(DocumentMessages.allFilled);
      else notifyInfo(DocumentMessages.fillAllForContract);
      return true;
    } finally {
      setSaving(false);
    }
  }

  async function next() {
    if (unsaved > 0 && !(await saveAll())) return;
    try {
      await setStep.mutateAsync({ userId: user.id, step: view + 1 });
      setView(view + 1);
      window.scrollTo({ top: 0 });
    } catch (error) {
      if (isApiError(error) && error.status === 422) {
        // What is missing, marked where it belongs: the profile's fields by name, 'passport.*' and 'documents.*'.
        const errors = firstErrors(error.errors);
        const under = (prefix: string) =>
          Object.fromEntries(Object.entries(errors).flatMap(([k, v]) => (k.startsWith(prefix) ? [[k.slice(prefix.length), v]] : [])));
        extrasForm.setErrors(Object.fromEntries(Object.entries(errors).filter(([k]) => k in extrasForm.values)));
        if (!locked) passportForm.setErrors(under('passport.'));
        setDocErrors(under('documents.'));
        focusFirstInvalid();
        notifyError(DocumentMessages.fillAllForContract);
      } else notifyError(errorMessage(error));
    }
  }

  function addFiles(kind: DocumentKind, files: File[]) {
    setPending((p) => ({ ...p, [kind]: [...(p[kind] ?? []), ...files] }));
    setDocErrors((e) => ({ ...e, [kind]: '' }));
  }
  function removePending(kind: DocumentKind, index: number) {
    setPending((p) => ({ ...p, [kind]: (p[kind] ?? []).filter((_, i) => i !== index) }));
  }
  async function deleteSaved(file: FileRecord) {
    try {
      const answer = await remove.mutateAsync({ id: file.id, userId: user.id });
      notifySuccess(answer.message);
    } catch (error) {
      notifyError(errorMessage(error));
    }
  }
  const field = (kind: DocumentKind, required: boolean) => (
    <DocumentKindField
      key={kind}
      kind={kind}
      required={required}
      saved={saved[kind] ?? []}
      pending={pending[kind] ?? []}
      error={docErrors[kind] || undefined}
      onAdd={(files) => addFiles(kind, files)}
      onRemovePending={(i) => removePending(kind, i)}
      onDelete={deleteSaved}
    />
  );

  // Floating at the bottom right on a wide screen; on a phone it would sit over a field
  // ('Кем выдан' at 390 px), so it stands above 'Назад' and 'Далее' instead.
  const saveButton = (
    <Button
      size={narrow ? 'sm' : 'md'}
      radius={narrow ? undefined : 'xl'}
      variant={narrow ? 'light' : 'filled'}
      fullWidth={narrow}
      leftSection={<IconDeviceFloppy size={18} />}
      rightSection={
        unsaved > 0 ? (
          <Badge color="orange" variant="filled" size="sm" miw={22} px={6} data-testid="unsaved-count">
            {unsaved}
          </Badge>
        ) : undefined
      }
      onClick={() => void saveAll()}
      loading={saving}
      disabled={unsaved === 0}
      aria-label={`Сохранить, несохранённых изменений: ${unsaved}`}
      data-testid="floating-save"
      style={narrow ? undefined : { boxShadow: 'var(--mantine-shadow-lg)' }}
    >
      Сохранить
    </Button>
  );

  return (
    <Stack gap="lg">
      <Paper p={{ base: 'sm', sm: 'lg' }} radius="lg">
        <Stepper
          active={view - 1}
          onStepClick={(i) => i + 1 <= view && setView(i + 1)}
          allowNextStepsSelect={false}
          size="sm"
          iconSize={narrow ? 28 : undefined}
          data-testid="wizard-steps"
        >
          <Stepper.Step label="Документы" description={narrow ? undefined : 'Личные данные, паспорт, файлы'} />
          <Stepper.Step label="Согласие" description={narrow ? undefined : 'На обработку персональных данных'} />
          <Stepper.Step label="Договор" description={narrow ? undefined : 'Печать и скан'} />
        </Stepper>
      </Paper>

      {live.valid && live.consent_valid && (
        <Alert color="teal" title={DocumentMessages.allFilled} data-testid="wizard-complete">
          Данные для договора заполнены.{' '}
          <Anchor component={Link} to="/user/entry">
            Перейти к моим заявкам
          </Anchor>
        </Alert>
      )}

      {view === 1 && (
        <>
          <Paper p="lg" radius="lg" component="section" aria-label="Личные данные">
            <Title order={3} size="h5" mb="sm">
              Личные данные
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md" verticalSpacing="sm">
              <TextInput
                label="Адрес регистрации"
                withAsterisk
                placeholder="Город, улица, дом, квартира"
                {...extrasForm.getInputProps('address')}
                style={{ gridColumn: '1 / -1' }}
              />
              <MaskedInput label="Дата рождения" withAsterisk mask="00.00.0000" placeholder="дд.мм.гггг" {...extrasForm.getInputProps('birthday')} />
              <MaskedInput label="СНИЛС" withAsterisk mask="000-000-000 00" placeholder="999-999-999 99" {...extrasForm.getInputProps('snils')} />
            </SimpleGrid>
          </Paper>

          <Paper p="lg" radius="lg" component="section" aria-label="Паспорт">
            <Group justify="space-between" mb="sm">
              <Title order={3} size="h5">
                Паспорт
              </Title>
              {locked && (
                <Badge color="gray" variant="light" leftSection={<IconLock size={12} />}>
                  Сохранён, изменить может только оператор
                </Badge>
              )}
            </Group>
            <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="sm">
              <MaskedInput
                label="Серия и номер"
                withAsterisk
                mask="0000 000000"
                placeholder="9999 999999"
                disabled={locked}
                {...passportForm.getInputProps('number')}
              />
              <MaskedInput
                label="Дата выдачи"
                withAsterisk
                mask="00.00.0000"
                placeholder="дд.мм.гггг"
                disabled={locked}
                {...passportForm.getInputProps('date')}
              />
            </SimpleGrid>
            <Textarea label="Кем выдан" withAsterisk autosize minRows={2} mt="sm" disabled={locked} {...passportForm.getInputProps('issued_by')} />
          </Paper>

          <Paper p="lg" radius="lg" component="section" aria-label="Документы">
            <Title order={3} size="h5" mb={4}>
              Документы
            </Title>
            <Text size="sm" c="dimmed" mb="sm">
              {DocumentMessages.fileHint}. Можно загрузить несколько файлов каждого вида.
            </Text>
            <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
              {REQUIRED_DOCUMENT_KINDS.map((k) => field(k, true))}
              {field('surname', false)}
              {field('other', false)}
            </SimpleGrid>
          </Paper>
        </>
      )}

      {view === 2 && (
        <Paper p="lg" radius="lg" component="section" aria-label="Согласие">
          <Title order={3} size="h5" mb={4}>
            Согласие на обработку персональных данных
          </Title>
          <Text size="sm" c="dimmed" mb="md">
            Распечатайте согласие, подпишите его и загрузите скан или фотографию. {DocumentMessages.fileHint}.
          </Text>
          <Group mb="md">
            <ConsentPrintButton userId={user.id} />
          </Group>
          {field('consent', true)}
        </Paper>
      )}

      {view === 3 && props.contractStep({ user, state: live })}

      {view < WIZARD_STEPS && narrow && saveButton}
      <Group justify="space-between">
        <Button variant="default" disabled={view === 1} onClick={() => setView(view - 1)}>
          Назад
        </Button>
        {view < WIZARD_STEPS && (
          <Button onClick={next} loading={setStep.isPending || saving} data-testid="wizard-next">
            Далее
          </Button>
        )}
      </Group>

      {view < WIZARD_STEPS && !narrow && (
        <Affix position={{ bottom: 24, right: 24 }} zIndex={150}>
          {saveButton}
        </Affix>
      )}
    </Stack>
  );
}

/** GET /api/user/{id}/consent/print answers {url}; the document opens in a new tab (spec 01 §7). */
function ConsentPrintButton({ userId }: { userId: number }) {
  const [busy, setBusy] = useState(false);
  async function print() {
    const tab = window.open('', '_blank');
    setBusy(true);
    try {
      const { url } = await api.get<z.output<typeof printLinkAnswer>>(`/api/user/${userId}/consent/print`);
      if (tab) tab.location.href = url;
      else window.location.assign(url);
    } catch (error) {
      tab?.close();
      notifyError(errorMessage(error));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Button variant="light" leftSection={<IconPrinter size={16} />} onClick={print} loading={busy}>
      Распечатать согласие
    </Button>
  );
}
