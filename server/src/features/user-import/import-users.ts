import { setImmediate as nextTurn } from 'node:timers/promises';
import { LogReasons } from '@edu/domain/logs/log';
import {
  decideImport,
  importFieldLabels,
  ImportMessages,
  IMPORT_FIELDS,
  mapHeaders,
  parseImportRow,
  type ImportAccount,
  type ImportCounts,
  type ImportField,
  type ImportFill,
  type ImportReportRow,
} from '@edu/domain/users/user-import';
import { logChanges, type ChangeLogEntry } from '../../platform/change-log.ts';
import type { Db } from '../../platform/db.ts';
import { fieldError } from '../../platform/errors.ts';
import type { Table } from './read-table.ts';
import {
  fillAccount,
  fillValues,
  insertAccounts,
  loadAccounts,
  loadDictionaries,
  newUserValues,
  setTrigramPendingList,
  type NewAccount,
} from './user-import-repository.ts';

/** Rows per transaction: a crash loses at most one batch, and a run again goes on from there. */
const BATCH = 1000;

export interface ImportOptions {
  fileName: string;
  /** Decide and report only; nothing is written. */
  dryRun: boolean;
  /** Who imports (an operator on the panel); null is the system (npm run import). */
  actorId: number | null;
  /** After each batch: rows done so far and the counts. */
  onProgress?: (processed: number, counts: ImportCounts) => void;
}

export interface ImportResult {
  total: number;
  counts: ImportCounts;
  report: ImportReportRow[];
  unknownColumns: string[];
}

const nameKey = (value: string) => value.trim().toLowerCase().replace(/ё/g, 'е').replace(/\s+/g, ' ');

/** Checks a file's columns before anything else: the required ones must be there. */
export function checkColumns(table: Table) {
  const header = mapHeaders(table.headers);
  if (header.missing.length > 0) {
    const message = ImportMessages.missingColumns(header.missing.map((f) => importFieldLabels[f]));
    throw fieldError('file', message, message);
  }
  return header;
}

/**
 * Brings a table of people into the cabinet. Each row is a new account, a merge into the account
 * holding its e-mail or phone (only its empty fields are filled), nothing (already there) or a
 * refusal with the Russian reason. Batches commit one by one with their change-log rows; running the
 * same file again changes nothing, and after a crash it goes on where it stopped.
 */
export async function importUsers(db: Db, table: Table, options: ImportOptions): Promise<ImportResult> {
  const header = checkColumns(table);
  const accounts = await loadAccounts(db);
  const byEmail = new Map<string, ImportAccount>();
  const byPhone = new Map<string, ImportAccount>();
  const remember = (account: ImportAccount) => {
    byEmail.set(account.email, account);
    if (account.phone) byPhone.set(account.phone, account);
  };
  accounts.forEach(remember);
  const dictionaries = await loadDictionaries(db);
  const regions = new Map(dictionaries.regions.map((r) => [nameKey(r.fdv), r.id]));
  const profiles = new Map(dictionaries.profiles.map((p) => [nameKey(p.fdv), p.id]));
  const lookup = { region: (name: string) => regions.get(nameKey(name)), profile: (name: string) => profiles.get(nameKey(name)) };

  const counts: ImportCounts = { new: 0, merged: 0, unchanged: 0, refused: 0 };
  const report: ImportReportRow[] = [];
  const reason = { old: null, new: LogReasons.imported(options.fileName) };
  let pseudoId = 0;

  // The batch waiting to be written: its new accounts (by e-mail and phone, so a second row of the
  // same person in the file writes the batch first and then meets the account) and its merges.
  let fresh: Array<NewAccount & { row: ImportReportRow }> = [];
  let merges: Array<{ accountId: number; fill: ImportFill; before: Record<string, unknown> }> = [];
  const pending = new Set<string>();

  const flush = async () => {
    if (fresh.length === 0 && merges.length === 0) return;
    const batchFresh = fresh;
    const batchMerges = merges;
    fresh = [];
    merges = [];
    pending.clear();
    let ids = new Map<string, number>();
    if (!options.dryRun) {
      await db.transaction(async (tx) => {
        ids = await insertAccounts(tx, batchFresh);
        const logs: ChangeLogEntry[] = [];
        for (const a of batchFresh) {
          const id = ids.get(a.person.email);
          if (id === undefined) continue;
          logs.push({
            type: 'user',
            entityId: id,
            userId: options.actorId,
            before: null,
            after: { ...newUserValues(a), profiles: a.profileIds, reason: reason.new },
          });
        }
        for (const m of batchMerges) {
          await fillAccount(tx, m.accountId, m.fill);
          const after: Record<string, unknown> = { ...fillValues(m.fill), reason: reason.new };
          if (m.fill.profile_ids) after.profiles = m.fill.profile_ids;
          logs.push({ type: 'user', entityId: m.accountId, userId: options.actorId, before: m.before, after });
        }
        await logChanges(tx, logs);
      });
    }
    for (const a of batchFresh) {
      const id = options.dryRun ? --pseudoId : ids.get(a.person.email);
      if (id === undefined) {
        // An account with this e-mail or phone was made while the batch ran (a sign-up): run again to merge.
        a.row.outcome = 'refused';
        a.row.message = 'Аккаунт с этим e-mail или телефоном появился во время импорта: запустите импорт ещё раз';
        counts.new--;
        counts.refused++;
        continue;
      }
      a.row.account_id = id > 0 ? id : null;
      const p = a.person;
      remember({
        id,
        email: p.email,
        phone: p.phone,
        middle_name: p.middle_name,
        organization: p.organization,
        job_title: p.job_title,
        region: p.region,
        dict_region_id: a.regionId,
        has_password: p.password_hash !== null,
        has_profile: a.profileIds.length > 0,
        deleted: false,
        guest: false,
      });
    }
  };

  /** A merge waits for its batch; the account in memory takes the fill at once (a later row sees it). */
  const merge = (account: ImportAccount, fill: ImportFill) => {
    const columns = fillValues(fill);
    const before: Record<string, unknown> = { reason: null };
    for (const k of Object.keys(columns)) before[k] = k === 'password' ? null : (account[k as keyof ImportAccount] ?? null);
    if (fill.profile_ids) before.profiles = [];
    merges.push({ accountId: account.id, fill, before });
    Object.assign(account, columns);
    if (fill.password) account.has_password = true;
    if (fill.profile_ids?.length) account.has_profile = true;
    if (fill.phone) byPhone.set(fill.phone, account);
  };

  if (!options.dryRun) await setTrigramPendingList(db, true);
  try {
    await planAndWrite();
  } finally {
    if (!options.dryRun) await setTrigramPendingList(db, false);
  }
  options.onProgress?.(table.rows.length, { ...counts });
  return { total: table.rows.length, counts, report, unknownColumns: header.unknown };

  async function planAndWrite() {
    for (let index = 0; index < table.rows.length; index++) {
      const cellsOf = table.rows[index];
      const cells: Partial<Record<ImportField, string>> = {};
      for (const field of IMPORT_FIELDS) {
        const column = header.columns[field];
        if (column !== undefined) cells[field] = cellsOf[column] ?? '';
      }
      // Line 1 is the header.
      const row: ImportReportRow = {
        line: index + 2,
        fio: [cells.last_name, cells.first_name, cells.middle_name]
          .map((v) => (v ?? '').trim())
          .filter(Boolean)
          .join(' '),
        email: (cells.email ?? '').trim(),
        outcome: 'refused',
        account_id: null,
        message: '',
      };
      report.push(row);
      const parsed = parseImportRow(cells);
      if ('reason' in parsed) {
        row.message = parsed.reason;
        counts.refused++;
      } else {
        const person = parsed.person;
        // A second row of a person the batch is about to create: write the batch first.
        if (pending.has(person.email) || (person.phone && pending.has(person.phone))) await flush();
        const decision = decideImport(person, byEmail.get(person.email), person.phone ? byPhone.get(person.phone) : undefined, lookup);
        row.outcome = decision.outcome;
        counts[decision.outcome]++;
        if (decision.outcome === 'refused') row.message = decision.reason;
        else {
          row.message = decision.notes.join('; ');
          if (decision.outcome === 'new') {
            const profileIds = person.profiles.map(lookup.profile).filter((id): id is number => id !== undefined);
            fresh.push({ person, regionId: (person.region && lookup.region(person.region)) || null, profileIds: [...new Set(profileIds)], row });
            pending.add(person.email);
            if (person.phone) pending.add(person.phone);
          } else {
            const account = (byEmail.get(person.email) ?? byPhone.get(person.phone ?? ''))!;
            row.account_id = account.id > 0 ? account.id : null;
            if (decision.outcome === 'merged') merge(account, decision.fill);
          }
        }
      }
      if ((index + 1) % BATCH === 0) {
        await flush();
        options.onProgress?.(index + 1, { ...counts });
        // Let other requests in between batches.
        await nextTurn();
      }
    }
    await flush();
  }
}
