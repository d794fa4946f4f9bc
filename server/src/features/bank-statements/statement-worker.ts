// The statements' worker thread (read-statement.ts): decodes a 1C statement's bytes and reads it.
import { serveTasks } from '../../platform/worker-pool.ts';
import type { StatementParse } from '@edu/domain/bank-statements/bank-statement';
import { parseStatementBytes } from './read-statement.ts';

serveTasks<Uint8Array, StatementParse>(parseStatementBytes);
