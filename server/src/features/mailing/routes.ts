import { z } from 'zod';
import type { RoutesPlugin, ZodWireTypeProvider } from '../../platform/responses.ts';
import {
  audienceCountAnswer,
  audienceCountBody,
  letterBody,
  letterPreviewAnswer,
  mailingAnswer,
  MailingMessages,
  mailingQueuedAnswer,
  mailingsAnswer,
  mailSubscriptionAnswer,
  mailSubscriptionBody,
  mailSubscriptionSavedAnswer,
  sendAllBody,
  testLetterAnswer,
  unsubscribedAnswer,
  type LetterPreview,
  type MailingAudience,
} from '@edu/domain/mailing/mailing';
import { currentUser } from '../../platform/auth.ts';
import { logChange } from '../../platform/change-log.ts';
import { fieldError, notFound, validationError } from '../../platform/errors.ts';
import { scheduleJob } from '../../platform/jobs.ts';
import { htmlToText } from '../../platform/html.ts';
import { sanitizeRichHtml } from '../../platform/rich-html.ts';
import {
  audienceLabel,
  audienceRecipients,
  countAudience,
  insertMailing,
  isSubscribed,
  listMailings,
  mailingProgress,
  setSubscribed,
  unsubscribeByToken,
  userEmail,
} from './mailing-repository.ts';
import { letter } from './mailing-job.ts';
import { mailingMacroErrors, recipientValues, renderLetter } from './mailing-macros.ts';
import { defaultAccess } from '../../platform/access.ts';

const idParams = z.object({ id: z.coerce.number().int().positive() });
const tokenParams = z.object({ token: z.string().max(64) });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Mass mailing for operators (/manager/mailing), under /api/mail; registered inside the operator
 * scope (app.ts), which guards it.
 */
export const mailingOperatorRoutes: RoutesPlugin = async (app) => {
  /**
   * The letter's sanitised HTML and text; an empty one is refused, and so are macros a mailing cannot
   * fill (unknown to the catalogue, or with nothing to read in a mass letter), named under their field.
   */
  function content(message: string, subject: string) {
    const html = sanitizeRichHtml(message);
    const text = htmlToText(html);
    if (!text.trim()) throw fieldError('message', MailingMessages.empty);
    const errors = mailingMacroErrors({ subject, message: html });
    if (Object.keys(errors).length > 0) throw validationError(errors);
    return { html, text, subject };
  }

  /**
   * The letter as one recipient gets it, with that recipient's values: the chosen one (who must be in
   * the audience) or the audience's first; nobody in it: the operator's own values.
   */
  async function personalLetter(body: { message: string; subject?: string; audience?: MailingAudience; user_id?: number | null }, operatorId: number) {
    const c = content(body.message, body.subject ?? MailingMessages.subject);
    const audience = body.audience ?? null;
    const recipients = await audienceRecipients(app.db, audience, 20);
    let recipient = recipients[0] ?? null;
    if (body.user_id) {
      recipient = recipients.find((r) => r.id === body.user_id) ?? (await audienceRecipients(app.db, audience, 1, body.user_id))[0] ?? null;
      if (!recipient) throw fieldError('user_id', MailingMessages.notARecipient);
    }
    const valuesOf = await recipientValues(app.db, [recipient?.id ?? operatorId]);
    return { letter: renderLetter(c, valuesOf(recipient?.id ?? operatorId)), recipient, recipients };
  }

  /**
   * POST /api/mail/send-all {message, subject?, audience?}: the letter is sanitised and queued with its
   * job in one transaction; the answer comes once it is queued (spec 03 §7), the job sends it. An
   * audience nobody is in is refused before anything is queued.
   */
  app.post(
    '/send-all',
    {
      schema: {
        tags: ['mailing'],
        summary: 'Разослать письмо всем пользователям или выбранной аудитории',
        body: sendAllBody,
        response: { 201: mailingQueuedAnswer },
      },
    },
    async (request, reply) => {
      const { html, text, subject } = content(request.body.message, request.body.subject ?? MailingMessages.subject);
      const audience = request.body.audience ?? null;
      if ((await countAudience(app.db, audience)) === 0) throw fieldError('audience', MailingMessages.noRecipients);
      const label = await audienceLabel(app.db, audience);
      const id = await app.db.transaction(async (tx) => {
        const mailingId = await insertMailing(tx, {
          message: request.body.message,
          html,
          text,
          subject,
          audience,
          audienceLabel: label,
          createdBy: currentUser(request).id,
        });
        await scheduleJob(tx, 'mailing', { mailingId }, { uniqueKey: `mailing-${mailingId}` });
        return mailingId;
      });
      return reply.status(201).send({ data: (await mailingProgress(app.db, id))!, message: MailingMessages.sent });
    },
  );

  /** POST /api/mail/audience-count {audience?}: {data: {count, label}}, who would get the letter now. */
  app.post(
    '/audience-count',
    { schema: { tags: ['mailing'], summary: 'Число получателей рассылки', body: audienceCountBody, response: { 200: audienceCountAnswer } } },
    async (request) => {
      const audience = request.body.audience ?? null;
      const [count, label] = await Promise.all([countAudience(app.db, audience), audienceLabel(app.db, audience)]);
      return { data: { count, label } };
    },
  );

  /**
   * POST /api/mail/preview {message, subject?, audience?, user_id?}: {data: {subject, html, recipient,
   * recipients}}, the letter as a recipient gets it (macros filled with their values), and the
   * audience's first recipients to choose another.
   */
  app.post(
    '/preview',
    { schema: { tags: ['mailing'], summary: 'Предпросмотр письма рассылки для получателя', body: letterBody, response: { 200: letterPreviewAnswer } } },
    async (request) => {
      const p = await personalLetter(request.body, currentUser(request).id);
      const data: LetterPreview = { subject: p.letter.subject, html: letter(app, p.letter, 'preview').html, recipient: p.recipient, recipients: p.recipients };
      return { data };
    },
  );

  /** POST /api/mail/send-test {message, subject?, audience?, user_id?}: the previewed recipient's letter to the operator's own address, now. */
  app.post(
    '/send-test',
    { schema: { tags: ['mailing'], summary: 'Отправить себе тестовое письмо рассылки', body: letterBody, response: { 200: testLetterAnswer } } },
    async (request) => {
      const me = currentUser(request);
      const email = (await userEmail(app.db, me.id))!;
      const p = await personalLetter(request.body, me.id);
      const subject = `${MailingMessages.testPrefix}${p.letter.subject}`;
      const l = letter(app, p.letter, 'preview');
      await app.mailer.send({ to: email, subject, html: l.html, text: l.text });
      return { data: { email }, message: MailingMessages.testSent(email) };
    },
  );

  /** GET /api/mail/mailings: the latest mailings with their progress. */
  app.get('/mailings', { schema: { tags: ['mailing'], summary: 'Последние рассылки с ходом отправки', response: { 200: mailingsAnswer } } }, async () => ({
    data: await listMailings(app.db, 20),
  }));

  /** GET /api/mail/mailings/{id}: progress of one mailing (sent, failed, left, rate, failed addresses). */
  app.get(
    '/mailings/:id',
    { schema: { tags: ['mailing'], summary: 'Ход отправки рассылки', params: idParams, response: { 200: mailingAnswer } } },
    async (request) => {
      const data = await mailingProgress(app.db, request.params.id);
      if (!data) throw notFound();
      return { data };
    },
  );
};

/** The users' subscription and the unsubscribe link of the letters, under /api/mail. */
export const mailingRoutes: RoutesPlugin = async (app) => {
  // The signed-in user's own switch (settings page).
  await app.register(async (scope) => {
    const own = scope.withTypeProvider<ZodWireTypeProvider>();
    defaultAccess(own, 'user');
    own.get(
      '/subscription',
      { schema: { tags: ['mailing'], summary: 'Подписка текущего пользователя на рассылку', response: { 200: mailSubscriptionAnswer } } },
      async (request) => {
        return { data: { subscribed: await isSubscribed(app.db, currentUser(request).id) } };
      },
    );
    own.put(
      '/subscription',
      {
        schema: {
          tags: ['mailing'],
          summary: 'Подписаться на рассылку или отписаться',
          body: mailSubscriptionBody,
          response: { 200: mailSubscriptionSavedAnswer },
        },
      },
      async (request) => {
        const subscribed = request.body.subscribed;
        const me = currentUser(request);
        await app.db.transaction(async (tx) => {
          const was = await setSubscribed(tx, me.id, subscribed);
          await logChange(tx, { type: 'user', entityId: me.id, userId: me.id, before: { mail_subscribed: was }, after: { mail_subscribed: subscribed } });
        });
        return { data: { subscribed }, message: 'Данные сохранены!' };
      },
    );
  });

  // Unsubscribe by the link of a letter: no session; the token is the key (RFC 8058 one-click POST too).
  await app.register(async (scope) => {
    const open = scope.withTypeProvider<ZodWireTypeProvider>();
    open.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => done(null, { form: String(body) }));
    open.post(
      '/unsubscribe/:token',
      {
        config: { access: 'public' },
        schema: { tags: ['mailing'], summary: 'Отписаться от рассылки по ссылке из письма', params: tokenParams, response: { 200: unsubscribedAnswer } },
      },
      async (request) => {
        const token = request.params.token;
        // The link is the person's own (its token is theirs alone): the log names them as who acted.
        const done =
          UUID.test(token) &&
          (await app.db.transaction(async (tx) => {
            const found = await unsubscribeByToken(tx, token);
            if (found) {
              const who = found.userId;
              await logChange(tx, {
                type: 'user',
                entityId: who,
                userId: who,
                before: { mail_subscribed: found.wasSubscribed },
                after: { mail_subscribed: false },
              });
            }
            return found !== null;
          }));
        if (!done) throw notFound(MailingMessages.unsubscribeBadLink);
        return { message: MailingMessages.unsubscribed };
      },
    );
  });
};
