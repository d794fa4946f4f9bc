import { sql, type SQL } from 'drizzle-orm';
import { ContractStatus } from '@edu/domain/common/codes';
import { formatDate } from '@edu/domain/common/format';
import type { PageQuery } from '@edu/domain/common/pagination';
import { contractStatusColors, contractStatusLabels, type ContractItem, type ContractStatusCode } from '@edu/domain/contracts/contract';
import { fullName } from '@edu/domain/users/current-user';
import { rows, type Queryable } from '../../platform/db.ts';
import { fileRecord } from '../documents/documents-repository.ts';

export interface ContractFilter {
  ownerId?: number;
  fio?: string;
  status?: number;
  /** Approved contracts with a registration number are archived: only listed when asked. */
  archive?: boolean;
  entryId?: number;
  /** true: a signed scan is uploaded (the review queue); false: still waiting for the client's scan. */
  scan?: boolean;
}

export interface ContractRow {
  entry_id: number;
  entry_number: string;
  entry_status: number;
  registration_number: string | null;
  user_id: number;
  last_name: string;
  first_name: string;
  middle_name: string | null;
  service_id: number;
  service_title: string;
  template_certificate_id: number | null;
  id: number | null;
  status: number;
  comment: string | null;
  updated_at: Date | string | null;
  file_id: number | null;
  file_name: string | null;
  file_mime: string | null;
  file_size: number | null;
  file_created_at: Date | string | null;
}

const like = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Every live entry of a service whose type needs a contract has a contract card: the contract row
 * once a scan was uploaded, else a pending card without a scan ('Скан не загружен').
 */
export const contractFrom = sql`
  from entries en
  join services s on s.id = en.service_id
  join dict_service_types t on t.id = s.dict_type_id and t.is_contract_needed
  join users u on u.id = en.created_by
  left join contracts c on c.entry_id = en.id
  left join files f on f.id = c.file_id`;

export const contractColumns = sql`
  en.id as entry_id, en.number as entry_number, en.status as entry_status, en.registration_number,
  u.id as user_id, u.last_name, u.first_name, u.middle_name,
  s.id as service_id, s.title as service_title, s.template_certificate_id,
  c.id, coalesce(c.status, 1)::int as status, c.comment, c.updated_at,
  f.id as file_id, f.name as file_name, f.mime as file_mime, f.size as file_size, f.created_at as file_created_at`;

export function contractWhere(f: ContractFilter): SQL {
  const parts: SQL[] = [sql`en.deleted_at is null`, sql`u.deleted_at is null`];
  if (f.ownerId !== undefined) parts.push(sql`en.created_by = ${f.ownerId}`);
  if (f.entryId !== undefined) parts.push(sql`en.id = ${f.entryId}`);
  if (f.fio) {
    for (const word of f.fio.split(/\s+/).filter(Boolean).slice(0, 3)) {
      parts.push(sql`(u.last_name ilike ${like(word)} or u.first_name ilike ${like(word)} or u.middle_name ilike ${like(word)})`);
    }
  }
  if (f.status !== undefined) parts.push(sql`coalesce(c.status, 1) = ${f.status}`);
  if (f.scan !== undefined) parts.push(f.scan ? sql`f.id is not null` : sql`f.id is null`);
  if (f.status === ContractStatus.approved && f.ownerId === undefined) {
    parts.push(f.archive ? sql`en.registration_number is not null` : sql`en.registration_number is null`);
  }
  return sql.join(parts, sql` and `);
}

export function toContractItem(r: ContractRow): ContractItem {
  const status = (r.status || 1) as ContractStatusCode;
  return {
    id: r.id,
    status,
    statusLabel: contractStatusLabels[status],
    statusColor: contractStatusColors[status],
    comment: r.comment,
    file:
      r.file_id !== null && r.file_name !== null
        ? fileRecord({ id: r.file_id, name: r.file_name, mime: r.file_mime ?? '', size: Number(r.file_size ?? 0), created_at: r.file_created_at ?? new Date() })
        : null,
    user: { id: r.user_id, fio: fullName(r) },
    service: { id: r.service_id, title: r.service_title, template_certificate_id: r.template_certificate_id },
    entry: { id: r.entry_id, number: r.entry_number, status: r.entry_status, registration_number: r.registration_number },
    archived: status === ContractStatus.approved && r.registration_number !== null,
    updated_at_formatted: r.updated_at ? formatDate(r.updated_at) : null,
  };
}

/** Pending: cards with a scan first, oldest scan first (a review queue); other columns newest first. */
function orderOf(f: ContractFilter): SQL {
  if (f.status === ContractStatus.pending) return sql`order by (c.file_id is null), c.updated_at asc nulls last, en.id`;
  return sql`order by coalesce(c.updated_at, en.created_at) desc, en.id desc`;
}

export async function listContracts(db: Queryable, f: ContractFilter, page: PageQuery): Promise<{ data: ContractItem[]; total: number }> {
  const where = contractWhere(f);
  const [{ total }] = await rows<{ total: number }>(db, sql`select count(*)::int as total ${contractFrom} where ${where}`);
  const found = await rows<ContractRow>(
    db,
    sql`select ${contractColumns} ${contractFrom} where ${where} ${orderOf(f)} limit ${page.per_page} offset ${(page.page - 1) * page.per_page}`,
  );
  return { data: found.map(toContractItem), total: Number(total) };
}

export async function findContractByEntry(db: Queryable, entryId: number): Promise<ContractItem | null> {
  const [r] = await rows<ContractRow>(db, sql`select ${contractColumns} ${contractFrom} where ${contractWhere({ entryId })}`);
  return r ? toContractItem(r) : null;
}
