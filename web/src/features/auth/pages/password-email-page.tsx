import { useState } from 'react';
import { useDocumentTitle } from '../../../lib/use-document-title';
import { OldUserConfirm } from '../components/old-user-confirm';
import { PasswordForgotForm } from '../components/password-forgot-form';
import { readOldUser } from '../old-user-store';

/** /password/email: the old-user confirmation when a lookup result is kept, else the reset form. */
export function PasswordEmailPage() {
  const [kept] = useState(readOldUser);
  useDocumentTitle(kept ? 'Это ваш аккаунт?' : 'Восстановление пароля');
  return kept ? <OldUserConfirm kept={kept} /> : <PasswordForgotForm />;
}
