import { InputBase, type InputBaseProps } from '@mantine/core';
import { IMaskInput } from 'react-imask';

export interface MaskedInputProps extends Omit<InputBaseProps, 'onChange'> {
  /** An imask pattern: 0 is a digit, e.g. '0000 000000' (passport) or '000-000-000 00' (SNILS). */
  mask: string;
  value?: string;
  onChange?: (value: string) => void;
  onBlur?: () => void;
  onFocus?: () => void;
  name?: string;
  placeholder?: string;
  inputMode?: 'numeric' | 'text';
}

/** A text input with a fixed mask; the value is the masked text. */
export function MaskedInput({ mask, value, onChange, onBlur, onFocus, name, placeholder, inputMode = 'numeric', ...rest }: MaskedInputProps) {
  return (
    <InputBase
      {...rest}
      component={IMaskInput}
      mask={mask}
      value={value ?? ''}
      onAccept={(masked: string) => onChange?.(masked)}
      onBlur={onBlur}
      onFocus={onFocus}
      name={name}
      inputMode={inputMode}
      placeholder={placeholder}
      autoComplete="off"
    />
  );
}

/** 'dd.mm.yyyy' to 'yyyy-mm-dd' (empty when incomplete). */
export function ruDateToIso(value: string): string {
  const m = /^(\d{2})\.(\d{2})\.(\d{4})$/.exec(value.trim());
  return m ? `${m[3]}-${m[2]}-${m[1]}` : value.trim() ? value.trim() : '';
}

/** 'yyyy-mm-dd' to 'dd.mm.yyyy'. */
export function isoToRuDate(value: string | null | undefined): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(value ?? '');
  return m ? `${m[3]}.${m[2]}.${m[1]}` : '';
}
