import { useState } from 'react';
import { InputBase } from '@mantine/core';
import { IMaskInput } from 'react-imask';
import { IMPOSSIBLE_DATE_MESSAGE, isRealDate } from '@edu/domain/entries/entry';

/**
 * A day filter typed as dd.mm.yyyy: the list gets the day only when it is complete and real (or ''
 * when cleared), so a half-typed date never reaches the address bar; an impossible day says so, and
 * so does `error` (e.g. a range that ends before it starts).
 */
export function RuDateFilter({ label, value, onChange, error }: { label: string; value: string; onChange: (value: string) => void; error?: string | null }) {
  const [draft, setDraft] = useState(value);
  // The address bar changed from outside (reset, Back): show what it holds now.
  const [seen, setSeen] = useState(value);
  if (value !== seen) {
    setSeen(value);
    setDraft(value);
  }
  const problem = /^\d{2}\.\d{2}\.\d{4}$/.test(draft) && !isRealDate(draft) ? IMPOSSIBLE_DATE_MESSAGE : null;
  return (
    <InputBase
      label={label}
      component={IMaskInput}
      mask="00.00.0000"
      placeholder="дд.мм.гггг"
      value={draft}
      onAccept={(v: string) => {
        setDraft(v);
        if (v === '') onChange('');
        else if (isRealDate(v)) onChange(v);
      }}
      error={problem ?? error}
      inputMode="numeric"
      autoComplete="off"
    />
  );
}
