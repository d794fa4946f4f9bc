// Memory of the .xlsx writer alone against the row count (issue 22: "flat memory"). Usage:
//   NODE_OPTIONS=--expose-gc npx tsx bench/src/xlsx-memory.ts [--rows 100000,300000,1000000]
// Generated rows shaped like the entries export (13 columns, Russian text, a date, a price) are paged
// by keyset through writeXlsx (platform/xlsx-export.ts) into a sink that drops the bytes at 20 MB/s,
// like a download; for each count, fresh after a GC: wall and CPU time, peak RSS growth and peak heap
// (sampled every 20 ms), and the heap left after a GC at the end. Flat memory: the same growth at
// every count.
import os from 'node:os';
import { Writable } from 'node:stream';
import { writeXlsx, type XlsxExport } from '../../server/src/platform/xlsx-export.ts';
import { parseArgs } from './lib/args.ts';
import { printTable, writeResult } from './lib/results.ts';

const args = parseArgs();
const counts = args
  .string('rows', '100000,300000,1000000')
  .split(',')
  .map((s) => Number(s));

interface Row {
  id: number;
  number: string;
  created_at: Date;
  fio: string;
  email: string;
  title: string;
  price: number;
}

const names = ['Иванова Анна Сергеевна', 'Смирнова Мария Петровна', 'Кузнецова Елена Игоревна', 'Попова Ольга Андреевна'];

function generated(total: number): XlsxExport<Row> {
  return {
    sheet: 'Заявки',
    columns: {
      n: { header: '№', width: 7, type: 'number', value: (_, n) => n },
      number: { header: '№ заявки', width: 14, value: (r) => r.number },
      date: { header: 'Дата', width: 17, type: 'datetime', value: (r) => r.created_at },
      fio: { header: 'Клиент', width: 34, value: (r) => r.fio },
      email: { header: 'E-mail', width: 28, value: (r) => r.email },
      type: { header: 'Тип услуги', width: 22, value: () => 'Вебинары' },
      title: { header: 'Услуга', width: 48, value: (r) => r.title },
      section: { header: 'Секция', width: 26, value: () => null },
      status: { header: 'Статус', width: 14, value: (r) => (r.id % 3 ? 'Оплачена' : 'Не оплачена') },
      pay_type: { header: 'Способ оплаты', width: 14, value: () => 'Онлайн' },
      price: { header: 'Цена, ₽', width: 12, type: 'money', value: (r) => r.price },
      registration_number: { header: 'Рег. номер', width: 14, value: () => null },
      certificate_number: { header: '№ сертификата', width: 16, value: () => null },
    },
    page: async (after, limit) => {
      await new Promise((r) => setImmediate(r));
      const from = after ? after.id - 1 : total;
      const list: Row[] = [];
      for (let id = from; id > Math.max(0, from - limit); id--) {
        list.push({
          id,
          number: `X${String(id).padStart(9, '0')}`,
          created_at: new Date(Date.now() - id * 60_000),
          fio: names[id % names.length],
          email: `client-${id}@example.com`,
          title: `Вебинар «Формирующее оценивание на уроке», поток ${id % 200}`,
          price: 900,
        });
      }
      return list;
    },
    totals: () => {
      let sum = 0;
      return { add: (r) => (sum += r.price), cells: (count) => ({ number: 'Итого', date: `Заявок: ${count}`, price: sum }) };
    },
  };
}

const mb = (n: number) => Math.round((n / 1048576) * 10) / 10;
const results = [];
for (const total of counts) {
  global.gc?.();
  await new Promise((r) => setTimeout(r, 200));
  const rssBefore = process.memoryUsage.rss();
  const heapBefore = process.memoryUsage().heapUsed;
  let peakRss = rssBefore;
  let peakHeap = heapBefore;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  }, 20);
  let bytes = 0;
  const t0 = performance.now();
  // A download at about 20 MB/s.
  const sink = new Writable({
    write(chunk: Buffer, _enc, done) {
      bytes += chunk.length;
      setTimeout(done, chunk.length / 20_000);
    },
  });
  const cpu0 = process.cpuUsage();
  const written = await writeXlsx(generated(total), sink);
  const cpu = process.cpuUsage(cpu0);
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(sampler);
  global.gc?.();
  results.push({
    rows: written,
    seconds: Math.round(seconds * 100) / 100,
    cpu_seconds: Math.round(((cpu.user + cpu.system) / 1e6) * 100) / 100,
    file_mb: mb(bytes),
    rss_growth_mb: mb(peakRss - rssBefore),
    heap_growth_peak_mb: mb(peakHeap - heapBefore),
    heap_left_after_gc_mb: mb(process.memoryUsage().heapUsed - heapBefore),
  });
}
printTable(
  ['rows', 'wall', 'CPU', 'file', 'RSS growth', 'heap growth (peak)', 'heap left after GC'],
  results.map((r) => [
    r.rows,
    `${r.seconds} s`,
    `${r.cpu_seconds} s`,
    `${r.file_mb} MB`,
    `${r.rss_growth_mb} MB`,
    `${r.heap_growth_peak_mb} MB`,
    `${r.heap_left_after_gc_mb} MB`,
  ]),
);
console.log(`results: ${writeResult('xlsx-memory', { machine: { cpus: os.cpus().length, loadavg: os.loadavg() }, results })}`);
