import { PasswordInput, type PasswordInputProps } from '@mantine/core';

/**
 * PasswordInput with a Russian toggle label. The toggle's name avoids the word «пароль» so that
 * getByLabel('Пароль') finds only the input.
 */
export function PasswordField(props: PasswordInputProps) {
  return <PasswordInput visibilityToggleButtonProps={{ 'aria-label': 'Показать символы' }} {...props} />;
}
