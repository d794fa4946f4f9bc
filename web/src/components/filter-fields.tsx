import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Checkbox, MultiSelect, Select, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedCallback } from '@mantine/hooks';
import { Messages } from '@edu/domain/common/messages';
import { FilterPanel } from './filter-panel';
import type { ListParams } from './use-list-params';

export interface FilterOption {
  value: string;
  label: string;
}

interface Base {
  /** The query parameter (as the server's list schema names it). */
  name: string;
  label: string;
}

/**
 * One filter of a list, described once: its kind decides the input. Text is sent 350 ms after the
 * last key; choices at once. Multiple choice travels as `1,2,0`.
 */
export type FilterField =
  | (Base & { kind: 'text'; placeholder?: string; inputMode?: 'numeric' | 'text' | 'email' | 'tel' })
  | (Base & { kind: 'select'; options: FilterOption[]; placeholder?: string; searchable?: boolean })
  | (Base & { kind: 'multiselect'; options: FilterOption[]; placeholder?: string })
  | (Base & { kind: 'checkbox'; /** The value sent when checked (default '1'). */ on?: string })
  | (Base & { kind: 'segmented'; options: FilterOption[] })
  | (Base & { kind: 'custom'; render: (value: string, onChange: (value: string) => void) => ReactNode });

const DEBOUNCE_MS = 350;

/** A text filter that keeps its own text while typing and writes the URL after a pause. */
function DebouncedText({
  field,
  value,
  onChange,
  error,
}: {
  field: Extract<FilterField, { kind: 'text' }>;
  value: string;
  onChange: (v: string) => void;
  error?: string;
}) {
  const [text, setText] = useState(value);
  const pending = useRef(false);
  const push = useDebouncedCallback((v: string) => {
    pending.current = false;
    onChange(v.trim());
  }, DEBOUNCE_MS);
  // The URL changed from outside (reset, Back): show it, unless the user is mid-typing.
  useEffect(() => {
    if (!pending.current) setText(value);
  }, [value]);
  return (
    <TextInput
      label={field.label}
      placeholder={field.placeholder}
      inputMode={field.inputMode}
      value={text}
      error={error}
      onChange={(e) => {
        pending.current = true;
        setText(e.currentTarget.value);
        push(e.currentTarget.value);
      }}
    />
  );
}

function FieldInput({ field, value, onChange, error }: { field: FilterField; value: string; onChange: (v: string) => void; error?: string }) {
  switch (field.kind) {
    case 'text':
      return <DebouncedText field={field} value={value} onChange={onChange} error={error} />;
    case 'select':
      return (
        <Select
          label={field.label}
          placeholder={field.placeholder ?? 'Все'}
          data={field.options}
          value={value || null}
          onChange={(v) => onChange(v ?? '')}
          error={error}
          searchable={field.searchable}
          nothingFoundMessage={Messages.nothingFound}
          clearable
        />
      );
    case 'multiselect':
      return (
        <MultiSelect
          label={field.label}
          placeholder={value ? undefined : (field.placeholder ?? 'Все')}
          data={field.options}
          value={value ? value.split(',') : []}
          onChange={(v) => onChange(v.join(','))}
          nothingFoundMessage={Messages.nothingFound}
          searchable
          clearable
        />
      );
    case 'checkbox':
      return (
        <Checkbox
          label={field.label}
          checked={value === (field.on ?? '1')}
          onChange={(e) => onChange(e.currentTarget.checked ? (field.on ?? '1') : '')}
          styles={{ root: { alignSelf: 'end', paddingBottom: 8 } }}
        />
      );
    case 'segmented':
      return (
        <Stack gap={4}>
          <Text size="sm" fw={500}>
            {field.label}
          </Text>
          <SegmentedControl data={field.options} value={value} onChange={onChange} aria-label={field.label} fullWidth />
        </Stack>
      );
    case 'custom':
      return <>{field.render(value, onChange)}</>;
  }
}

/**
 * A filter shows its new value at once; the URL (and with it the list) follows. Navigations run as
 * transitions, so without this a checkbox would spring back until the URL had changed.
 */
function LocalField({ field, value, onChange, error }: { field: FilterField; value: string; onChange: (v: string) => void; error?: string }) {
  const [local, setLocal] = useState(value);
  // The URL changed (reset, Back, or our own write arriving): show it.
  const [seen, setSeen] = useState(value);
  if (value !== seen) {
    setSeen(value);
    setLocal(value);
  }
  return (
    <FieldInput
      field={field}
      error={error}
      value={local}
      onChange={(v) => {
        setLocal(v);
        onChange(v);
      }}
    />
  );
}

/** The filters of a list, read from and written to the URL through `params`. */
export function FilterFields({ fields, params, narrow }: { fields: FilterField[]; params: ListParams; narrow: boolean }) {
  return (
    <FilterPanel active={params.activeCount} onReset={params.reset} narrow={narrow}>
      {fields.map((field) =>
        field.kind === 'text' ? (
          <FieldInput
            key={field.name}
            field={field}
            value={params.values[field.name] ?? ''}
            error={params.refused[field.name]}
            onChange={(v) => params.set(field.name, v)}
          />
        ) : (
          <LocalField
            key={field.name}
            field={field}
            value={params.values[field.name] ?? ''}
            error={params.refused[field.name]}
            onChange={(v) => params.set(field.name, v)}
          />
        ),
      )}
    </FilterPanel>
  );
}
