// Co-author invitations: linking another person's account to a publication needs their consent.

/** Our texts (the spec has none for invitations). */
export const CoAuthorMessages = {
  noInvitation: 'Приглашение не найдено или уже принято',
  accepted: 'Вы добавлены в соавторы публикации',
  declined: 'Приглашение отклонено',
  acceptedLog: 'приглашение принято',
  declinedLog: 'приглашение отклонено',
  pending: 'ожидает подтверждения',
} as const;

export const coAuthorInvitationText = (inviter: string, title: string) =>
  `${inviter} приглашает вас в соавторы публикации «${title}». Подтвердите участие в разделе «Мои публикации».`;

/** GET /api/publication/invitations: the invitations waiting for the signed-in user's answer. */
export interface CoAuthorInvitation {
  publication_id: number;
  title: string;
  /** The name the inviter typed for this co-author. */
  fio: string;
  /** Who created the publication. */
  inviter: string;
}
