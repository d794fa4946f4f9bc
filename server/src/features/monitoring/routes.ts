import { createHash, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { MonitoringMessages, readinessAnswer } from '@edu/domain/monitoring/monitoring';
import { authErrorAnswer, errorAnswer } from '@edu/domain/common/answers';
import { Messages } from '@edu/domain/common/messages';
import type { RoutesPlugin } from '../../platform/responses.ts';
import { readiness } from './readiness.ts';

/** Whether an Authorization header carries this bearer token; compared in constant time (hashes of equal length). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = /^Bearer\s+(.+)$/i.exec(header ?? '')?.[1]?.trim() ?? '';
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(given), digest(token)) && given.length > 0;
}

const metricsText = {
  description: 'Метрики в текстовом формате Prometheus',
  content: { 'text/plain': { schema: z.string() } },
};
const metricsRefused = {
  description: 'Нет заголовка Authorization: Bearer <METRICS_TOKEN> или токен неверен',
  content: { 'application/json': { schema: authErrorAnswer } },
};
const metricsOff = {
  description: 'Метрики выключены: переменная METRICS_TOKEN не задана (ответ как у неизвестного адреса)',
  content: { 'application/json': { schema: errorAnswer } },
};

/**
 * GET /metrics (Prometheus, behind METRICS_TOKEN: without it the route is as absent as an unknown
 * one) and GET /api/ready (the database and the optional parts). Registered at the root, public:
 * /metrics checks its own token, /api/ready is for a load balancer's probe.
 */
export const monitoringRoutes: RoutesPlugin = async (app) => {
  app.get(
    '/metrics',
    {
      config: { access: 'public' },
      schema: {
        tags: ['monitoring'],
        summary: 'Метрики Prometheus (нужен METRICS_TOKEN)',
        security: [{ metricsToken: [] }],
        response: { 200: metricsText, 401: metricsRefused, 404: metricsOff },
      },
    },
    async (request, reply) => {
      const token = app.config.metricsToken;
      if (!token || !app.metrics) return reply.code(404).send({ message: Messages.notFound });
      if (!bearerMatches(request.headers.authorization, token)) {
        return reply.code(401).header('www-authenticate', 'Bearer realm="metrics"').send({ message: MonitoringMessages.metricsToken });
      }
      const text = await app.metrics.metrics();
      return reply.type(app.metrics.contentType).send(text);
    },
  );

  app.get(
    '/api/ready',
    {
      config: { access: 'public' },
      schema: {
        tags: ['monitoring'],
        summary: 'Готовность: база данных и необязательные части (печать, оплата, почта, сайт)',
        response: {
          200: readinessAnswer.meta({ description: 'База данных отвечает' }),
          503: readinessAnswer.meta({ description: 'База данных не отвечает' }),
        },
      },
    },
    async (_request, reply) => {
      const answer = await readiness(app);
      return reply.code(answer.ready ? 200 : 503).send(answer);
    },
  );
};
