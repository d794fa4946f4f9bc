import { useState, type ReactNode } from 'react';
import { Button, Group, Select, SimpleGrid, Skeleton, Stack, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useSearchParams } from 'react-router';
import { IconPlus } from '@tabler/icons-react';
import { isOperator, PublicationStatus, publicationStatusLabels } from '@edu/domain/common/codes';
import { ConfirmModal } from '../../../components/confirm-modal';
import { ListPagination } from '../../../components/list-pagination';
import { EmptyList, ListError } from '../../../components/list-states';
import { errorMessage } from '../../../lib/api-client';
import { useCurrentUser } from '../../../lib/current-user';
import { notifyError, notifySuccess } from '../../../lib/notify';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { usePublicationServices } from '../api/get-publication-services';
import { usePublications } from '../api/get-publications';
import { deletePublication, useInvalidatePublications } from '../api/manage-publication';
import { PublicationMessages, type Publication, type PublicationEntryRef } from '../api/types';
import { CoAuthorInvitations } from '../components/co-author-invitations';
import { PublicationCard } from '../components/publication-card';
import { PublicationCreateModal } from '../components/publication-create-modal';
import { PublicationViewModal } from '../components/publication-view-modal';

const statusOptions = Object.entries(publicationStatusLabels).map(([value, label]) => ({ value, label }));

interface UserPublicationsPageProps {
  /** The pay button of an unpaid entry (the entries feature, composed by the app). */
  renderPay?: (entry: PublicationEntryRef) => ReactNode;
}

/**
 * /user/publication 'Мои публикации' (spec 03 §2): filter bar, cards, skeleton of 6, the view
 * modal on click; 'Добавить публикацию' opens the entry form.
 */
export function UserPublicationsPage({ renderPay }: UserPublicationsPageProps) {
  useDocumentTitle('Мои публикации');
  const me = useCurrentUser();
  const operator = isOperator(me.data);
  const services = usePublicationServices();
  const [title, setTitle] = useState('');
  const [fio, setFio] = useState('');
  const [status, setStatus] = useState<string | null>(null);
  const [serviceId, setServiceId] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [debouncedTitle] = useDebouncedValue(title.trim(), 350);
  const [debouncedFio] = useDebouncedValue(fio.trim(), 350);
  const list = usePublications({
    title: debouncedTitle,
    fio: operator ? debouncedFio : undefined,
    status: status ?? undefined,
    serviceId: operator ? (serviceId ?? undefined) : undefined,
    userId: me.data?.id,
    page,
    per_page: 15,
  });
  const [open, setOpen] = useState<Publication | null>(null);
  const [creating, setCreating] = useState(false);
  // «Добавить статью» of a paid publication entry in «Мои заявки» leads here with ?entry=<id>.
  const [search, setSearch] = useSearchParams();
  const entryParam = Number(search.get('entry'));
  const articleEntry = Number.isInteger(entryParam) && entryParam > 0 ? entryParam : null;
  const closeCreate = () => {
    setCreating(false);
    if (articleEntry !== null) setSearch({}, { replace: true });
  };
  const [removing, setRemoving] = useState<Publication | null>(null);
  const invalidate = useInvalidatePublications();
  const [deleting, setDeleting] = useState(false);

  async function remove() {
    if (!removing) return;
    setDeleting(true);
    try {
      await deletePublication(removing.id);
      notifySuccess(PublicationMessages.deleted);
      invalidate();
      setRemoving(null);
    } catch (error) {
      notifyError(errorMessage(error));
    } finally {
      setDeleting(false);
    }
  }

  const reset =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(1);
    };

  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={2}>Мои публикации</Title>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
          Добавить публикацию
        </Button>
      </Group>
      {!operator && <CoAuthorInvitations />}
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="sm" data-testid="publication-filters">
        <TextInput label="Название" placeholder="Поиск по названию" value={title} onChange={(e) => reset(setTitle)(e.currentTarget.value)} />
        <Select label="Статус" placeholder="Все" clearable data={statusOptions} value={status} onChange={reset(setStatus)} />
        {operator && <TextInput label="ФИО" placeholder="Автор" value={fio} onChange={(e) => reset(setFio)(e.currentTarget.value)} />}
        <Select
          label="Тип услуги"
          placeholder="Все"
          clearable
          disabled={!operator}
          data={(services.data ?? []).map((s) => ({ value: String(s.id), label: s.title }))}
          value={serviceId}
          onChange={reset(setServiceId)}
        />
      </SimpleGrid>
      {list.isPending ? (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm" aria-busy="true" data-testid="list-skeleton">
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} h={180} radius="md" />
          ))}
        </SimpleGrid>
      ) : list.isError ? (
        <ListError message={errorMessage(list.error)} />
      ) : list.data.data.length === 0 ? (
        <EmptyList />
      ) : (
        <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm" data-testid="publications-cards" style={{ opacity: list.isPlaceholderData ? 0.6 : 1 }}>
          {list.data.data.map((p) => {
            const unpaid = p.status !== PublicationStatus.rejected ? p.entries.find((e) => e.status === 1) : undefined;
            return (
              <PublicationCard
                key={p.id}
                publication={p}
                onOpen={() => setOpen(p)}
                onDelete={() => setRemoving(p)}
                pay={unpaid && renderPay ? renderPay(unpaid) : undefined}
              />
            );
          })}
        </SimpleGrid>
      )}
      <ListPagination meta={list.data?.meta} onPage={setPage} />
      <PublicationViewModal publication={open} operator={operator} onClose={() => setOpen(null)} />
      <PublicationCreateModal opened={creating || articleEntry !== null} entryId={articleEntry} onClose={closeCreate} />
      <ConfirmModal
        opened={removing !== null}
        title="Удаление"
        onClose={() => setRemoving(null)}
        onConfirm={() => void remove()}
        loading={deleting}
        color="red"
      >
        Вы уверены, что хотите удалить?
      </ConfirmModal>
    </Stack>
  );
}
