import { Select, TextInput } from '@mantine/core';
import { Messages } from '@edu/domain/common/messages';
import { siteLookupProblem, useSiteLookup, type SiteLookupKind, type SiteSystem } from '../lib/site-lookups';

interface SiteItemSelectProps {
  kind: SiteLookupKind;
  /** The main site (default) or the journal's. */
  system?: SiteSystem;
  label: string;
  /** The stored id ('' or null when none). */
  value: number | string | null;
  onChange: (value: string) => void;
  error?: React.ReactNode;
}

/**
 * A category or a tag of the connected site, chosen by name from the site's own list. Without a
 * site (or when it does not answer) the field says so and the stored value is kept as it is.
 */
export function SiteItemSelect({ kind, system = 'site', label, value, onChange, error }: SiteItemSelectProps) {
  const lookup = useSiteLookup(kind, system);
  const current = value === null || value === '' ? '' : String(value);
  const problem = siteLookupProblem(lookup);
  if (problem || lookup.isPending) {
    const kept = kind === 'categories' ? 'Выбранная категория сохранится' : 'Выбранный тег сохранится';
    return (
      <TextInput
        label={label}
        readOnly
        disabled={lookup.isPending}
        value={lookup.isPending ? 'Загрузка списка с сайта…' : (problem ?? '')}
        description={problem ? (current ? kept : 'Выбрать можно, когда сайт доступен') : undefined}
        error={error}
        data-testid={`site-${kind}-off`}
      />
    );
  }
  const options = (lookup.data ?? []).map((o) => ({ value: String(o.id), label: o.title }));
  if (current && !options.some((o) => o.value === current))
    options.unshift({ value: current, label: kind === 'categories' ? 'Категории больше нет на сайте' : 'Тега больше нет на сайте' });
  return (
    <Select
      label={label}
      data={options}
      value={current || null}
      onChange={(v) => onChange(v ?? '')}
      searchable
      clearable
      allowDeselect={false}
      placeholder="Не выбрано"
      nothingFoundMessage={Messages.nothingFound}
      error={error}
    />
  );
}
