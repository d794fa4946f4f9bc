import { useState, type ReactNode } from 'react';
import { Paper, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { DEFAULT_PAGE_SIZE } from '@edu/domain/common/codes';
import { Messages } from '@edu/domain/common/messages';
import type { Service } from '@edu/domain/services/service';
import { useDictionary } from '../../../lib/dictionaries';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { ListPagination } from '../../../components/list-pagination';
import { serviceQuery, useService } from '../../../lib/get-service';
import { useServices, type ServiceFilters } from '../api/get-services';
import { useFacets } from '../api/get-facets';
import { ServiceCard } from '../components/service-card';
import { ServiceFiltersBar, type Period } from '../components/service-filters';
import { ServiceNotFoundModal } from '../components/service-not-found-modal';
import { SubtypePicker } from '../components/subtype-picker';
import { TypePicker } from '../components/type-picker';

export interface EntryModalSlot {
  opened: boolean;
  service: Service | null;
  onClose: () => void;
}

interface CataloguePageProps {
  /** The enrol modal (entries feature), composed by the app. */
  renderEntryModal: (slot: EntryModalSlot) => ReactNode;
  /** For a publication subtype: the publication entry form with its price (publications feature). */
  renderPublicationForm?: (subtypeId: number) => ReactNode;
}

const numberParam = (value: string | null): number | null => (value && /^\d+$/.test(value) ? Number(value) : null);

/**
 * /user/service[/:id] (spec 01 §2): choose a type, then a subtype; filters; the list. An item opens
 * the enrol modal at /user/service/{id}; closing returns to /user/service.
 */
export function CataloguePage({ renderEntryModal, renderPublicationForm }: CataloguePageProps) {
  useDocumentTitle('Услуги');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const params = useParams();
  const [search, setSearch] = useSearchParams();
  const typeId = numberParam(search.get('type'));
  const subtypeId = numberParam(search.get('subtype'));

  const [profile, setProfile] = useState<string[]>([]);
  const [leading, setLeading] = useState<string[]>([]);
  const [period, setPeriod] = useState<Period>('all');
  const [title, setTitle] = useState('');
  const [debouncedTitle] = useDebouncedValue(title, 300);
  const [page, setPage] = useState(1);

  const allTypes = useDictionary('dict_service_types');
  const subtypes = useDictionary('dict_service_subtypes');
  const profiles = useDictionary('dict_profiles');
  const facets = useFacets();

  // Publications are applied for with the article (the publications area), not as ordinary entries:
  // their types and subtypes are not offered here.
  // With the publication form composed, publication subtypes show it instead of the list.
  const withPublications = renderPublicationForm !== undefined;
  const types = (allTypes.data ?? []).filter((t) => withPublications || !t.is_publication);
  const type = types.find((t) => t.id === typeId) ?? null;
  const typeSubtypes = (subtypes.data ?? []).filter((s) => s.dict_service_type_id === typeId && (withPublications || !s.is_publication));
  const subtype = typeSubtypes.find((s) => s.id === subtypeId) ?? null;

  const filters: ServiceFilters = {
    dict_type_id: typeId ?? undefined,
    dict_subtype_id: subtype ? subtype.id : undefined,
    profile: profile.map(Number),
    leading: leading.map(Number),
    isPublication: 0,
    past: period === 'all' ? undefined : period === 'past' ? 1 : 0,
    title: debouncedTitle,
    page,
    per_page: DEFAULT_PAGE_SIZE,
  };
  const list = useServices(filters);

  // The service of the route: an item click seeds it, a link loads it.
  const routeId = numberParam(params.id ?? null);
  const current = useService(routeId);
  const [shown, setShown] = useState<Service | null>(null);
  if (current.data && current.data !== shown) setShown(current.data);
  const notFound = routeId !== null && current.isError;
  const badId = params.id !== undefined && routeId === null;

  const query = search.toString() ? `?${search.toString()}` : '';
  const closeModal = () => {
    // Fire-and-forget: the modal closes as the route changes; nothing waits on the transition.
    void navigate({ pathname: '/user/service', search: query });
  };

  function chooseType(id: number | null) {
    setPage(1);
    setSearch(id === null ? {} : { type: String(id) }, { replace: true });
  }

  function chooseSubtype(id: number | null) {
    setPage(1);
    const next = new URLSearchParams(search);
    if (id === null) next.delete('subtype');
    else next.set('subtype', String(id));
    setSearch(next, { replace: true });
  }

  function open(service: Service) {
    queryClient.setQueryData(serviceQuery(service.id).queryKey, service);
  }

  const resetPage =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      set(v);
      setPage(1);
    };

  return (
    <Stack gap="lg">
      <Title order={2}>Услуги</Title>

      {allTypes.isPending ? (
        <Skeleton h={120} radius="md" />
      ) : (
        <TypePicker types={types} points={facets.data?.type_points} value={typeId} onChange={chooseType} />
      )}

      {type && <SubtypePicker subtypes={typeSubtypes} value={subtype?.id ?? null} onChange={chooseSubtype} />}

      {subtype?.is_publication && renderPublicationForm ? (
        renderPublicationForm(subtype.id)
      ) : (
        <Stack gap="md">
          <ServiceFiltersBar
            profiles={profiles.data ?? []}
            profile={profile}
            onProfile={resetPage(setProfile)}
            leadings={facets.data?.leadings ?? []}
            leading={leading}
            onLeading={resetPage(setLeading)}
            period={period}
            onPeriod={resetPage(setPeriod)}
            title={title}
            onTitle={resetPage(setTitle)}
          />
          {list.isPending ? (
            <Stack gap="sm" aria-busy="true">
              {[0, 1, 2].map((i) => (
                <Skeleton key={i} h={92} radius="md" />
              ))}
            </Stack>
          ) : list.isError ? (
            <Paper p="xl" radius="md">
              <Text c="red.7">{Messages.serverError}</Text>
            </Paper>
          ) : list.data.data.length === 0 ? (
            <Paper p="xl" radius="md">
              <Text c="dimmed" ta="center">
                {Messages.nothingFound}
              </Text>
            </Paper>
          ) : (
            <Stack gap="sm" data-testid="service-list" style={{ opacity: list.isPlaceholderData ? 0.6 : 1 }}>
              {list.data.data.map((service) => (
                <ServiceCard key={service.id} service={service} to={`/user/service/${service.id}${query}`} onOpen={open} />
              ))}
            </Stack>
          )}
          <ListPagination meta={list.data?.meta} onPage={setPage} />
        </Stack>
      )}

      {renderEntryModal({ opened: routeId !== null && !notFound, service: routeId !== null ? (current.data ?? null) : shown, onClose: closeModal })}
      <ServiceNotFoundModal opened={notFound || badId} onClose={closeModal} />
    </Stack>
  );
}
