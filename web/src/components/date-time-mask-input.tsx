import { InputBase, type InputBaseProps } from '@mantine/core';
import { IMaskInput } from 'react-imask';

/** The payments date filter mask 9999-99-99 99:99:99 (spec 03 §5), in imask notation. */
export const DATE_TIME_MASK = '0000-00-00 00:00:00';

export interface DateTimeMaskInputProps extends Omit<InputBaseProps, 'onChange'> {
  value?: string;
  onChange?: (value: string) => void;
  name?: string;
  placeholder?: string;
}

/**
 * A date-time typed with the mask 9999-99-99 99:99:99; the value is what has been typed so far
 * (a prefix such as `2026-05` is a valid filter).
 */
export function DateTimeMaskInput({ value, onChange, name, placeholder = 'ГГГГ-ММ-ДД чч:мм:сс', ...rest }: DateTimeMaskInputProps) {
  return (
    <InputBase
      {...rest}
      component={IMaskInput}
      mask={DATE_TIME_MASK}
      value={value ?? ''}
      onAccept={(masked: string) => onChange?.(masked)}
      name={name}
      inputMode="numeric"
      autoComplete="off"
      placeholder={placeholder}
    />
  );
}

/** What to send for a typed prefix: cut at the first unfilled place and drop trailing separators. */
export function dateTimePrefix(value: string): string {
  return (value.split('_')[0] ?? '').replace(/[-:\s]+$/, '');
}
