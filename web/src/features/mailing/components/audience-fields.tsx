import { useState } from 'react';
import { Input, MultiSelect, SegmentedControl, SimpleGrid } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { servicesAnswer } from '@edu/domain/services/service';
import { mailingEntryStatusOptions, type MailingAudience } from '@edu/domain/mailing/mailing';
import { api } from '../../../lib/api-client';
import { useDictionary } from '../../../lib/dictionaries';

const options = (items: Array<{ id: number; fdv: string }> | undefined) => (items ?? []).map((i) => ({ value: String(i.id), label: i.fdv }));
const ids = (values: string[]) => (values.length > 0 ? values.map(Number) : undefined);
const values = (list: number[] | undefined) => (list ?? []).map(String);

/** Services by title for the audience (operators see hidden ones too): GET /api/service?title=. */
function useServiceOptions(search: string) {
  return useQuery({
    queryKey: ['mailing-services', search],
    queryFn: async () => (await api.get<z.output<typeof servicesAnswer>>(`/api/service?per_page=30&title=${encodeURIComponent(search)}`)).data,
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}

/** «Кому»: profile, region, St Petersburg or not, service type, services and entry status; empty = everyone. */
export function AudienceFields({ value, onChange }: { value: MailingAudience; onChange: (next: MailingAudience) => void }) {
  const profiles = useDictionary('dict_profiles');
  const regions = useDictionary('dict_regions');
  const types = useDictionary('dict_service_types');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const services = useServiceOptions(debounced);
  // Chosen services keep their names while the search shows others.
  const [serviceNames, setServiceNames] = useState<Record<string, string>>({});
  const serviceData = [
    ...Object.entries(serviceNames)
      .filter(([id]) => values(value.service_ids).includes(id))
      .map(([id, label]) => ({ value: id, label })),
    ...(services.data ?? [])
      .filter((s) => !serviceNames[String(s.id)] || !values(value.service_ids).includes(String(s.id)))
      .map((s) => ({ value: String(s.id), label: s.title })),
  ];
  const set = (patch: Partial<MailingAudience>) => onChange({ ...value, ...patch });
  const spb = value.is_spb === 1 ? '1' : value.is_spb === 0 ? '0' : 'all';

  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm" data-testid="mailing-audience">
      <MultiSelect
        label="Профиль"
        placeholder="Все профили"
        data={options(profiles.data)}
        value={values(value.profile_ids)}
        onChange={(v) => set({ profile_ids: ids(v) })}
        searchable
        clearable
      />
      <MultiSelect
        label="Регион"
        placeholder="Все регионы"
        data={options(regions.data)}
        value={values(value.region_ids)}
        onChange={(v) => set({ region_ids: ids(v) })}
        searchable
        clearable
      />
      <Input.Wrapper label="Санкт-Петербург">
        <SegmentedControl
          mt={4}
          fullWidth
          value={spb}
          onChange={(v) => set({ is_spb: v === 'all' ? undefined : (Number(v) as 0 | 1) })}
          data={[
            { value: 'all', label: 'Все' },
            { value: '1', label: 'Санкт-Петербург' },
            { value: '0', label: 'Другие' },
          ]}
          aria-label="Санкт-Петербург"
        />
      </Input.Wrapper>
      <MultiSelect
        label="Тип услуги"
        placeholder="Все типы"
        data={options(types.data)}
        value={values(value.service_type_ids)}
        onChange={(v) => set({ service_type_ids: ids(v) })}
        clearable
      />
      <MultiSelect
        label="Услуги"
        placeholder="Начните вводить название"
        data={serviceData}
        value={values(value.service_ids)}
        onChange={(v) => {
          const names = { ...serviceNames };
          for (const id of v) names[id] ??= serviceData.find((o) => o.value === id)?.label ?? id;
          setServiceNames(names);
          set({ service_ids: ids(v) });
        }}
        searchable
        searchValue={search}
        onSearchChange={setSearch}
        filter={({ options: all }) => all}
        nothingFoundMessage={services.isFetching ? 'Ищем…' : 'Ничего не найдено'}
        clearable
      />
      <MultiSelect
        label="Статус заявки"
        placeholder="Любой"
        description="С заявкой на выбранные услуги или типы"
        data={mailingEntryStatusOptions}
        value={values(value.entry_statuses)}
        onChange={(v) => set({ entry_statuses: ids(v) as MailingAudience['entry_statuses'] })}
        clearable
      />
    </SimpleGrid>
  );
}
