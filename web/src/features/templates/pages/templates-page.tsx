import { useState } from 'react';
import { Alert, Button, Group, List, Modal, Paper, Select, SegmentedControl, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconPlus } from '@tabler/icons-react';
import { TemplateType } from '@edu/domain/common/codes';
import type { Template } from '@edu/domain/templates/template';
import { ListPagination } from '../../../components/list-pagination';
import { useListParams } from '../../../components/use-list-params';
import { ApiError, errorMessage } from '../../../lib/api-client';
import { useDictionary } from '../../../lib/dictionaries';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { useNarrow } from '../../../lib/use-narrow';
import { useDeleteTemplate, useSetDefaultTemplate, useTemplates } from '../api/templates';
import { CertificateBatchPanel } from '../components/certificate-batch-panel';
import { MissingTemplatesPanel } from '../components/missing-templates-panel';
import { TemplateList, type TemplateAction } from '../components/template-list';
import { TemplateModal, type TemplateTypeOption } from '../components/template-modal';

/** /manager/templates 'Шаблоны' (spec 02 §2): templates by type; add, edit, delete; defaults per service type. */
export function TemplatesPage() {
  useDocumentTitle('Шаблоны');
  const narrow = useNarrow();
  const typesQuery = useDictionary('dict_template_types');
  const serviceTypes = useDictionary('dict_service_types');
  const types = (typesQuery.data ?? []) as unknown as TemplateTypeOption[];
  // The type, page and page size live in the address bar (?type=2&page=3): a reload keeps them. The
  // control shows a new type at once; the URL follows.
  const params = useListParams();
  const { page, perPage, setPage, setPerPage } = params;
  const [typeId, setTypeIdNow] = useState<number>(() => Number(params.values.type) || TemplateType.certificate);
  const setTypeId = (id: number) => {
    setTypeIdNow(id);
    params.set('type', id === TemplateType.certificate ? '' : String(id));
  };
  const list = useTemplates({ dict_type_id: typeId, page, per_page: perPage });
  const [modal, setModal] = useState<{ id: number | null } | null>(null);
  const [removing, setRemovingNow] = useState<Template | null>(null);
  // Why the server refused to delete it (the template is in use: what uses it, one line each).
  const [inUse, setInUse] = useState<string[] | null>(null);
  const setRemoving = (t: Template | null) => {
    setInUse(null);
    setRemovingNow(t);
  };
  const [defaulting, setDefaulting] = useState<Template | null>(null);
  const [serviceType, setServiceType] = useState<string | null>(null);
  const remove = useDeleteTemplate();
  const setDefault = useSetDefaultTemplate();
  const templates = list.data?.data ?? [];

  const onAction = (action: TemplateAction, t: Template) => {
    if (action === 'edit') setModal({ id: t.id });
    if (action === 'delete') setRemoving(t);
    if (action === 'default') {
      setServiceType(null);
      setDefaulting(t);
    }
  };

  const typeOptions = types.map((t) => ({ value: String(t.id), label: t.fdv }));
  return (
    <Stack gap="lg">
      <Group justify="space-between" align="center">
        <Title order={2}>Шаблоны</Title>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setModal({ id: null })} disabled={types.length === 0}>
          Добавить шаблон
        </Button>
      </Group>

      {typesQuery.isLoading ? (
        <Skeleton h={36} />
      ) : narrow ? (
        <Select
          label="Тип шаблона"
          data={typeOptions}
          value={String(typeId)}
          allowDeselect={false}
          onChange={(v) => {
            if (!v) return;
            setTypeId(Number(v));
          }}
        />
      ) : (
        <SegmentedControl
          data={typeOptions}
          value={String(typeId)}
          onChange={(v) => {
            setTypeId(Number(v));
          }}
          aria-label="Тип шаблона"
        />
      )}

      <MissingTemplatesPanel />

      {typeId === TemplateType.certificate && <CertificateBatchPanel />}

      {list.isLoading ? (
        <Stack gap={6}>
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} h={narrow ? 110 : 44} radius="md" />
          ))}
        </Stack>
      ) : list.error ? (
        <Paper p="xl" radius="md">
          <Text c="red.7" ta="center" role="alert">
            {errorMessage(list.error)}
          </Text>
        </Paper>
      ) : templates.length === 0 ? (
        <Paper p="xl" radius="md" withBorder>
          <Stack align="center" gap="xs">
            <Text c="dimmed" data-testid="list-empty">
              Шаблонов этого типа пока нет
            </Text>
            <Button variant="light" onClick={() => setModal({ id: null })}>
              Добавить шаблон
            </Button>
          </Stack>
        </Paper>
      ) : (
        <Paper radius="md" withBorder={!narrow} p={narrow ? 0 : 'xs'} bg={narrow ? 'transparent' : undefined}>
          <TemplateList templates={templates} narrow={narrow} onAction={onAction} />
        </Paper>
      )}
      <ListPagination meta={list.data?.meta} onPage={setPage} onPerPage={setPerPage} />

      <TemplateModal opened={modal !== null} onClose={() => setModal(null)} templateId={modal?.id ?? null} typeId={typeId} types={types} />

      <Modal opened={removing !== null} onClose={() => setRemoving(null)} title="Удаление шаблона" centered>
        {inUse ? (
          <Alert color="orange" variant="light" title="Шаблон используется, удалить его нельзя" mb="lg" data-testid="template-in-use">
            <List size="sm" spacing={4}>
              {inUse.map((line) => (
                <List.Item key={line}>{line}</List.Item>
              ))}
            </List>
            <Text size="sm" mt="xs">
              Сначала выберите вместо него другой шаблон.
            </Text>
          </Alert>
        ) : (
          <Text mb="lg">Вы уверены, что хотите удалить?</Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={() => setRemoving(null)}>
            {inUse ? 'Закрыть' : 'Нет'}
          </Button>
          {!inUse && (
            <Button
              color="red"
              loading={remove.isPending}
              onClick={() =>
                remove.mutate(removing!.id, {
                  onSuccess: (r) => {
                    notifySuccess(r.message);
                    setRemoving(null);
                  },
                  onError: (err) => {
                    const lines = err instanceof ApiError ? err.errors?.id : undefined;
                    if (lines?.length) setInUse(lines);
                    else notifyError(errorMessage(err));
                  },
                })
              }
            >
              Да
            </Button>
          )}
        </Group>
      </Modal>

      <Modal opened={defaulting !== null} onClose={() => setDefaulting(null)} title="Шаблон по умолчанию" centered>
        <Stack>
          <Text size="sm">«{defaulting?.title}» будет использоваться для услуг выбранного типа, у которых не задан свой шаблон.</Text>
          <Select
            label="Тип услуги"
            placeholder="Выберите тип услуги"
            data={(serviceTypes.data ?? []).map((s) => ({ value: String(s.id), label: s.fdv }))}
            value={serviceType}
            onChange={setServiceType}
            searchable
            comboboxProps={{ withinPortal: true }}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={() => setDefaulting(null)}>
              Отмена
            </Button>
            <Button
              disabled={!serviceType}
              loading={setDefault.isPending}
              onClick={() =>
                setDefault.mutate(
                  { id: defaulting!.id, serviceTypeId: Number(serviceType) },
                  {
                    onSuccess: (r) => {
                      notifySuccess(r.message);
                      setDefaulting(null);
                    },
                    onError: (err) => notifyError(errorMessage(err)),
                  },
                )
              }
            >
              Установить
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
