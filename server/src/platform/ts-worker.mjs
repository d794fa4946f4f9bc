// Entry of every worker thread: registers tsx's loader in this thread, then imports the TypeScript
// module named in workerData.entry. The same way under `npm start` (tsx), `tsx watch`, vitest and the
// bench scripts: the worker never depends on loader flags inherited from the parent (it is started
// with an empty execArgv).
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
