// The local stand-in of the Joomla site for the browser journeys (started for each worker by support/app-server.ts):
// the same fake the server tests use, with the demo catalogue's categories; it stands for both the
// main site (services) and the journal's site (publications, decision 026). It listens on an
// ephemeral port behind a small front on the fixed port, which forwards every call and also takes
// POST /__e2e/mode {mode: 'ok' | 'down' | 'error'}, so a journey can see the app while the site
// does not answer (and put it back).
import http from 'node:http';
import { startFakeJoomla } from '../../server/test/fake-joomla.ts';

const port = Number(process.env.FAKE_JOOMLA_PORT ?? 8241);
const fake = await startFakeJoomla({
  token: process.env.FAKE_JOOMLA_TOKEN ?? 'e2e-joomla-token',
  categories: Array.from({ length: 12 }, (_, i) => ({ id: 101 + i, title: `Раздел сайта ${i + 1}` })),
  tags: Array.from({ length: 12 }, (_, i) => ({ id: 201 + i, title: `Профиль ${i + 1}` })),
});
const target = new URL(fake.url);
const MODES = new Set(['ok', 'down', 'error']);

const front = http.createServer((req, res) => {
  if (req.method === 'POST' && req.url === '/__e2e/mode') {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const mode = (JSON.parse(body || '{}') as { mode?: string }).mode ?? '';
      if (!MODES.has(mode)) {
        res.writeHead(400).end();
        return;
      }
      fake.mode = mode as typeof fake.mode;
      res.writeHead(204).end();
    });
    return;
  }
  const upstream = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  upstream.on('error', () => res.writeHead(502).end());
  req.pipe(upstream);
});
await new Promise<void>((resolve) => front.listen(port, '127.0.0.1', resolve));
