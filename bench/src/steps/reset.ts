import type pg from 'pg';
import { inTransaction } from '../lib/db.ts';
import { BENCH_NOTE, BENCH_OPERATOR_NOTE } from '../lib/sessions.ts';
import { BENCH_SERVICE_MARK } from './services.ts';

/**
 * Deletes everything the generator (and the webhook bench) made: the bench users (note 'bench' and
 * 'bench-operator'), the bench services (marked in joomla_intro_html), the entries of either, and
 * what hangs off them. user_profiles, access_tokens, password_resets, notifications, entry_theses,
 * service sections/profiles/leadings cascade; entries, payments, card transactions, contracts and
 * change logs reference users without a cascade (several without an index), so they go first, each
 * in one statement.
 */
export async function resetBench(pool: pg.Pool): Promise<{ users: number; services: number; entries: number }> {
  return inTransaction(pool, async (client) => {
    await client.query('create temporary table bench_ids on commit drop as select id from users where note = any($1)', [[BENCH_NOTE, BENCH_OPERATOR_NOTE]]);
    await client.query('create temporary table bench_services on commit drop as select id from services where joomla_intro_html = $1', [BENCH_SERVICE_MARK]);
    await client.query(`create temporary table bench_entries on commit drop as
      select id from entries where created_by in (select id from bench_ids) or service_id in (select id from bench_services)`);
    await client.query('analyze bench_ids, bench_services, bench_entries');
    await client.query(`create temporary table bench_payments on commit drop as
      select id from payments where user_id in (select id from bench_ids) or created_by in (select id from bench_ids)
      union select payment_id from payment_entries where entry_id in (select id from bench_entries)`);
    await client.query('delete from payment_entries where entry_id in (select id from bench_entries) or payment_id in (select id from bench_payments)');
    await client.query('delete from payments where id in (select id from bench_payments)');
    await client.query('delete from card_transactions where user_id in (select id from bench_ids) or created_by in (select id from bench_ids)');
    await client.query(
      'delete from contracts where entry_id in (select id from bench_entries) or user_id in (select id from bench_ids) or service_id in (select id from bench_services)',
    );
    await client.query('delete from publication_entries where entry_id in (select id from bench_entries)');
    await client.query(
      `delete from change_logs where user_id in (select id from bench_ids) or (type = 'entry' and entity_id in (select id from bench_entries))`,
    );
    await client.query('delete from reviews where user_id in (select id from bench_ids)');
    const entries = await client.query('delete from entries where id in (select id from bench_entries)');
    await client.query('delete from service_package_services where service_id in (select id from bench_services)');
    const services = await client.query('delete from services where id in (select id from bench_services)');
    const users = await client.query('delete from users where id in (select id from bench_ids)');
    return { users: users.rowCount ?? 0, services: services.rowCount ?? 0, entries: entries.rowCount ?? 0 };
  });
}
