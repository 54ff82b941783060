import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types */

/**
 * Counters behind `GET /v1/dashboard`, so that its cost no longer grows with the tickets
 * (docs/architecture.md#dashboard).
 *
 * - `dashboard_deltas`: insert-only. Triggers on `tickets` write one row per ticket inserted (+1)
 *   or deleted (-1), and two per update of a column the dashboard reads (the old values -1, the
 *   new +1), in the changing transaction. Triggers also see foreign-key actions (an agent or team
 *   deleted sets the ticket's column to null; a customer or organization deleted cascades), and
 *   `ticketing import`. Only inserts: concurrent writers never wait for each other on a counter row.
 * - `dashboard_totals`: the deltas folded per organization, kind and key (dashboard.compaction.ts,
 *   in the background). Kinds: `sp` status x priority, `oa` open per (agent, team) ('' for none),
 *   `cr` created per hour, `rs` resolved per hour, `du` open per due hour, `dt` open with a due date.
 *
 * The backfill runs after the triggers exist, in the migration's transaction: on PostgreSQL the
 * trigger creation locks out writers until commit, so no ticket is counted twice or missed.
 */
const OPEN = "('new', 'open', 'pending')";
const COLUMNS = 'organization_id, status, priority, assigned_user_id, assigned_team_id, created_at, due_date, resolved_at';

export async function up(db: Kysely<any>): Promise<void> {
  const dialect = dialectOf(db);
  await db.schema
    .createTable('dashboard_deltas')
    .addColumn('id', dialect === 'sqlite' ? 'integer' : 'bigint', (c) =>
      dialect === 'sqlite' ? c.primaryKey() : c.primaryKey().generatedAlwaysAsIdentity(),
    )
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('priority', 'text', (c) => c.notNull())
    .addColumn('assigned_user_id', 'text')
    .addColumn('assigned_team_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('due_date', 'text')
    .addColumn('resolved_at', 'text')
    .addColumn('n', 'integer', (c) => c.notNull())
    .execute();
  // A dashboard reads its organization's pending deltas; compaction takes the oldest first (id).
  await db.schema.createIndex('dashboard_deltas_org_idx').on('dashboard_deltas').columns(['organization_id', 'id']).execute();

  await db.schema
    .createTable('dashboard_totals')
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('a', 'text', (c) => c.notNull())
    .addColumn('b', 'text', (c) => c.notNull())
    .addColumn('n', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('dashboard_totals_pkey', ['organization_id', 'kind', 'a', 'b'])
    // SQLite: the table is its primary key, so a range of hour buckets is read without lookups.
    .$call((tb) => (dialect === 'sqlite' ? tb.modifyEnd(sql`without rowid`) : tb))
    .execute();

  const values = (row: 'old' | 'new', n: number) =>
    COLUMNS.split(', ')
      .map((c) => `${row}.${c}`)
      .join(', ') + `, ${n}`;
  const changed = (distinct: string) =>
    COLUMNS.split(', ')
      .map((c) => (/_at$|due_date/.test(c) ? `substr(old.${c}, 1, 13) ${distinct} substr(new.${c}, 1, 13)` : `old.${c} ${distinct} new.${c}`))
      .join(' or ');

  if (dialect === 'postgres') {
    await sql
      .raw(
        `create function tickets_dashboard_deltas() returns trigger language plpgsql as $$
        begin
          if tg_op = 'INSERT' then
            insert into dashboard_deltas (${COLUMNS}, n) values (${values('new', 1)});
          elsif tg_op = 'DELETE' then
            insert into dashboard_deltas (${COLUMNS}, n) values (${values('old', -1)});
          else
            insert into dashboard_deltas (${COLUMNS}, n) values (${values('old', -1)}), (${values('new', 1)});
          end if;
          return null;
        end
        $$`,
      )
      .execute(db);
    await sql.raw(`create trigger tickets_dashboard_insert_delete after insert or delete on tickets for each row execute function tickets_dashboard_deltas()`).execute(db);
    // Only an update that moves a ticket between counters (times compared to the hour) writes deltas.
    await sql.raw(`create trigger tickets_dashboard_update after update on tickets for each row when (${changed('is distinct from')}) execute function tickets_dashboard_deltas()`).execute(db);
  } else {
    await sql.raw(`create trigger tickets_dashboard_insert after insert on tickets begin insert into dashboard_deltas (${COLUMNS}, n) values (${values('new', 1)}); end`).execute(db);
    await sql.raw(`create trigger tickets_dashboard_delete after delete on tickets begin insert into dashboard_deltas (${COLUMNS}, n) values (${values('old', -1)}); end`).execute(db);
    await sql
      .raw(
        `create trigger tickets_dashboard_update after update on tickets when (${changed('is not')}) begin
          insert into dashboard_deltas (${COLUMNS}, n) values (${values('old', -1)}), (${values('new', 1)});
        end`,
      )
      .execute(db);
  }

  // The backfill: every kind, as compaction would fold it. Old hour buckets (no window reads them)
  // are left out, as compaction leaves them out; see dashboard.counters.ts for the horizons.
  const hour = (ms: number) => new Date(Date.now() - ms).toISOString().slice(0, 13);
  const DAY = 86_400_000;
  const insert = (select: string) =>
    sql.raw(`insert into dashboard_totals (organization_id, kind, a, b, n) ${select}`).execute(db);
  await insert(`select organization_id, 'sp', status, priority, count(*) from tickets group by organization_id, status, priority`);
  await insert(
    `select organization_id, 'oa', coalesce(assigned_user_id, ''), coalesce(assigned_team_id, ''), count(*) from tickets
     where status in ${OPEN} group by organization_id, coalesce(assigned_user_id, ''), coalesce(assigned_team_id, '')`,
  );
  await insert(
    `select organization_id, 'cr', substr(created_at, 1, 13), '', count(*) from tickets
     where created_at >= '${hour(8 * DAY)}' group by organization_id, substr(created_at, 1, 13)`,
  );
  await insert(
    `select organization_id, 'rs', substr(resolved_at, 1, 13), '', count(*) from tickets
     where resolved_at >= '${hour(31 * DAY)}' group by organization_id, substr(resolved_at, 1, 13)`,
  );
  await insert(
    `select organization_id, 'du', substr(due_date, 1, 13), '', count(*) from tickets
     where status in ${OPEN} and due_date >= '${hour(2 * 3_600_000)}' group by organization_id, substr(due_date, 1, 13)`,
  );
  await insert(
    `select organization_id, 'dt', '', '', count(*) from tickets
     where status in ${OPEN} and due_date is not null group by organization_id`,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`drop trigger if exists tickets_dashboard_update on tickets`.execute(db);
    await sql`drop trigger if exists tickets_dashboard_insert_delete on tickets`.execute(db);
    await sql`drop function if exists tickets_dashboard_deltas()`.execute(db);
  } else {
    for (const name of ['tickets_dashboard_insert', 'tickets_dashboard_delete', 'tickets_dashboard_update']) {
      await sql`drop trigger if exists ${sql.id(name)}`.execute(db);
    }
  }
  await db.schema.dropTable('dashboard_totals').ifExists().execute();
  await db.schema.dropTable('dashboard_deltas').ifExists().execute();
}
