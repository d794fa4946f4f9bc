import { z } from 'zod';
import { listAnswer, messageAnswer } from '../common/answers.ts';

// Co-author invitations: linking another person's account to a publication needs their consent.

/** Our texts (the spec has none for invitations). */
export const CoAuthorMessages = {
  noInvitation: 'Приглашение не найдено или уже принято',
  accepted: 'Вы добавлены в соавторы публикации',
  declined: 'Приглашение отклонено',
  acceptedLog: 'приглашение принято',
  declinedLog: 'приглашение отклонено',
  pending: 'ожидает подтверждения',
  duplicate: 'Один и тот же человек указан в соавторах дважды: оставьте его один раз',
  declinedBefore: (fio: string) =>
    `Приглашение в соавторы этой публикации отклонено (${fio}): пригласить повторно нельзя. Укажите соавтора без ссылки на аккаунт или обратитесь к менеджеру`,
} as const;

export const coAuthorInvitationText = (inviter: string, title: string) =>
  `${inviter} приглашает вас в соавторы публикации «${title}». Подтвердите участие в разделе «Мои публикации».`;

/** GET /api/publication/invitations: the invitations waiting for the signed-in user's answer. */
export const coAuthorInvitationSchema = z.object({
  publication_id: z.number().int(),
  title: z.string(),
  /** The name the inviter typed for this co-author. */
  fio: z.string(),
  /** Who created the publication. */
  inviter: z.string(),
});
export type CoAuthorInvitation = z.output<typeof coAuthorInvitationSchema>;

/** GET /api/publication/invitations. */
export const coAuthorInvitationsAnswer = listAnswer(coAuthorInvitationSchema);
/** POST /api/publication/{id}/accept-invitation, …/decline-invitation. */
export const invitationAnsweredAnswer = messageAnswer;
