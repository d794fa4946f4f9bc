// The local stand-in of the Joomla site for the browser journeys (started by playwright.config.ts):
// the same fake the server tests use, on a fixed port, with the demo catalogue's categories. It stands
// for both the main site (services) and the journal's site (publications, decision 026).
import { startFakeJoomla } from '../../server/test/fake-joomla.ts';

const port = Number(process.env.FAKE_JOOMLA_PORT ?? 8241);
const fake = await startFakeJoomla({
  port,
  token: process.env.FAKE_JOOMLA_TOKEN ?? 'e2e-joomla-token',
  categories: Array.from({ length: 12 }, (_, i) => ({ id: 101 + i, title: `Раздел сайта ${i + 1}` })),
  tags: Array.from({ length: 12 }, (_, i) => ({ id: 201 + i, title: `Профиль ${i + 1}` })),
});
console.log(`fake Joomla on ${fake.url}`);
