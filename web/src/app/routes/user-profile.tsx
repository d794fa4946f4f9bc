import { DocumentsCard } from '../../features/documents/components/documents-card';
import { ProfilePage } from '../../features/users/pages/profile-page';

/** /user/profile with the documents card (shown only when is_documents_upload_allowed). */
export function UserProfileRoute() {
  return <ProfilePage documentsCard={(user) => (user.is_documents_upload_allowed ? <DocumentsCard user={user} /> : null)} />;
}
