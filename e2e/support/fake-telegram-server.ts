// The local stand-in of the Telegram Bot API for the browser journeys and development runs (started
// for each worker by support/app-server.ts): the same stand-in the server tests use
// (server/test/fake-telegram.ts). It listens on an ephemeral port behind a small front on the fixed
// port, which forwards every Bot API call and also plays the person in the Telegram app:
//   POST /__e2e/write {chat_id, text, username?}  the person writes to the bot (e.g. "/start <token>"),
//                                                 the update goes to the app's webhook;
//   GET  /__e2e/sent?chat_id=N                    what the bot sent to that chat, [{text, parse_mode}].
// For a development run: FAKE_TELEGRAM_PORT=8099 FAKE_TELEGRAM_TOKEN=123:dev node --import tsx
// e2e/support/fake-telegram-server.ts, and the server with TELEGRAM_BOT_TOKEN=123:dev
// TELEGRAM_API_URL=http://127.0.0.1:8099.
import http from 'node:http';
import { startFakeTelegram } from '../../server/test/fake-telegram.ts';

const port = Number(process.env.FAKE_TELEGRAM_PORT ?? 8242);
const fake = await startFakeTelegram({ token: process.env.FAKE_TELEGRAM_TOKEN ?? '7000000001:e2e-telegram-token', username: 'edu_centre_e2e_bot' });
const target = new URL(fake.url);

function readJson(req: http.IncomingMessage): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      try {
        resolve(JSON.parse(body || '{}') as Record<string, unknown>);
      } catch {
        resolve({});
      }
    });
  });
}

const front = http.createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (req.method === 'POST' && url.pathname === '/__e2e/write') {
    void readJson(req).then(async (body) => {
      const chatId = Number(body.chat_id);
      if (!Number.isSafeInteger(chatId) || typeof body.text !== 'string') {
        res.writeHead(400).end();
        return;
      }
      const updateId = await fake.userWrites(chatId, body.text, typeof body.username === 'string' ? body.username : undefined);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ update_id: updateId }));
    });
    return;
  }
  if (req.method === 'GET' && url.pathname === '/__e2e/sent') {
    const chatId = Number(url.searchParams.get('chat_id'));
    const sent = fake.sent.filter((m) => m.chat_id === chatId).map((m) => ({ text: m.text, parse_mode: m.parse_mode }));
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(sent));
    return;
  }
  const upstream = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstream.on('error', () => res.writeHead(502).end());
  req.pipe(upstream);
});
front.listen(port, '127.0.0.1');

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    front.close();
    void fake.close().then(() => process.exit(0));
  });
}
