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

/** Russian phone with the mask +7 (999) 999-99-99; the value is the masked text. */
export function PhoneInput({ value, onChange, onBlur, onFocus, name, placeholder = '+7 (999) 999-99-99', autoComplete = 'tel', ...rest }: PhoneInputProps) {
  return (
    <InputBase
      {...rest}
      component={IMaskInput}
      mask={PHONE_MASK}
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
