import { TextInput } from '@mantine/core';

/** The Сумма filter: digits with an optional decimal part, in rubles. */
export function SumInput({ value, onChange, label = 'Сумма' }: { value: string; onChange: (value: string) => void; label?: string }) {
  return (
    <TextInput
      label={label}
      placeholder="0"
      inputMode="decimal"
      value={value}
      onChange={(e) => onChange(e.currentTarget.value.replace(',', '.').replace(/[^\d.]/g, ''))}
      rightSection={<span aria-hidden>₽</span>}
    />
  );
}

/** The sum to send: a number, or nothing while the field is empty or unfinished. */
export function sumFilter(value: string): number | undefined {
  const n = Number(value);
  return value.trim() !== '' && Number.isFinite(n) ? n : undefined;
}
