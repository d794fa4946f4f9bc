import { InputBase, type InputBaseProps } from '@mantine/core';
import { IMaskInput } from 'react-imask';
import { PHONE_MASK } from '@edu/domain/common/phone';

export interface PhoneInputProps extends Omit<InputBaseProps, 'onChange'> {
  value?: string;
  onChange?: (value: string) => void;
  onBlur?: () => void;
  onFocus?: () => void;
  name?: string;
  placeholder?: string;
  autoComplete?: string;
}

/**
 * A pasted full number (11 digits starting with 7 or 8, e.g. 8 999 123-45-67 or +7 999 …) loses its
 * country prefix, because the mask already holds +7. Typed digits are taken as they come.
 */
function preparePaste(chars: string, masked: { value: string }): string {
  const digits = chars.replace(/\D/g, '');
  if (chars.length > 1 && masked.value === '' && digits.length === 11 && /^[78]/.test(digits)) return digits.slice(1);
  return chars;
}

/** Russian phone with the mask +7 (999) 999-99-99; the value is the masked text. */
export function PhoneInput({ value, onChange, onBlur, onFocus, name, placeholder = '+7 (999) 999-99-99', autoComplete = 'tel', ...rest }: PhoneInputProps) {
  return (
    <InputBase
      {...rest}
      component={IMaskInput}
      mask={PHONE_MASK}
      prepare={preparePaste}
      value={value ?? ''}
      onAccept={(masked: string) => onChange?.(masked)}
      onBlur={onBlur}
      onFocus={onFocus}
      name={name}
      type="tel"
      inputMode="tel"
      placeholder={placeholder}
      autoComplete={autoComplete}
    />
  );
}
