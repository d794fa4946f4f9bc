import { useDocumentTitle } from '../../../lib/use-document-title';
import { PasswordForgotForm } from '../components/password-forgot-form';

/** /password/reset: request a new password by e-mail. */
export function PasswordResetPage() {
  useDocumentTitle('Восстановление пароля');
  return <PasswordForgotForm />;
}
