import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { AREAS, DETAILS, DOMAINS, FIRST, LAST, OPENERS, PROBLEMS, REFUND } from './seed.js';

/**
 * The search bench's fast path on PostgreSQL: one organization's customers and tickets made by the
 * database itself (`INSERT ... SELECT generate_series`), the tickets' GIN indexes dropped while it
 * runs and built again after, so a million tickets take minutes, not the 40 of bench/seed.ts's
 * batches through Kysely. The data set follows seed.ts's: the same vocabulary, "refund" in about
 * 3% of the tickets ("Refund request: " leading half of their subjects), 2,000 customers whose
 * email is `first.last<n>@domain`, the same status and priority weights. (Not the same rows: its
 * own generator, `setseed` + `random()`.)
 */
export async function seedPostgresFast(databaseUrl: string, organizationId: string, counts: { tickets: number; customers: number }): Promise<void> {
  const list = (values: readonly string[]) => sql`array[${sql.join(values.map((v) => sql.lit(v)))}]::text[]`;
  // pick(list, r): an element of the list by a random number in [0, 1).
  const pick = (values: readonly string[], r: string) => sql`(${list(values)})[1 + floor(${sql.raw(r)} * ${sql.lit(values.length)})::int]`;
  const iso = (ms: string) => sql`to_char(to_timestamp(${sql.raw(ms)} / 1000.0) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  const now = Date.now();
  const yearAgo = now - 365 * 86_400_000;

  // A connection of its own: the store's pool bounds every query in time, as requests need.
  const own = new Kysely<unknown>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: databaseUrl, max: 1 }) }) });
  await own.connection().execute(async (db) => {
    await sql`set statement_timeout = 0`.execute(db);
    await sql`set maintenance_work_mem = '512MB'`.execute(db);
    await sql`select setseed(0.42)`.execute(db);
    const created = new Date(yearAgo).toISOString();
    await sql`insert into users (id, organization_id, email, email_normalized, full_name, role, is_active, created_at, updated_at)
      select gen_random_uuid()::text, ${organizationId}, 'agent' || i || '@support.example.com', 'agent' || i || '@support.example.com',
        'Agent ' || i, case when i = 0 then 'admin' else 'agent' end, 1, ${created}, ${created}
      from generate_series(0, 7) i`.execute(db);
    await sql`insert into teams (id, organization_id, name, description, created_at, updated_at)
      select gen_random_uuid()::text, ${organizationId}, n, n || ' team', ${created}, ${created}
      from unnest(array['Billing', 'Technical support', 'Accounts', 'Escalations']) n`.execute(db);
    await sql`insert into customers (id, organization_id, name, email, email_normalized, company, has_premium_support, is_vip, created_at, updated_at)
      select gen_random_uuid()::text, ${organizationId}, f || ' ' || l, e, e, null, (random() < 0.2)::int, (random() < 0.05)::int, ${created}, ${created}
      from (select i, f, l, lower(f || '.' || replace(replace(l, ' ', ''), '-', '') || i || '@' || ${pick(DOMAINS, 'random()')}) e
        from (select i, ${pick(FIRST, 'random()')} f, ${pick(LAST, 'random()')} l from generate_series(0, ${counts.customers - 1}) i) n) c`.execute(db);

    // The tickets' GIN indexes, built again once the rows are in: far faster than row by row.
    const gin = await sql<{ indexname: string; indexdef: string }>`select indexname, indexdef from pg_indexes
      where schemaname = current_schema() and tablename = 'tickets' and indexdef ilike '% using gin %'`.execute(db);
    for (const index of gin.rows) await sql`drop index ${sql.id(index.indexname)}`.execute(db);
    await sql`
      with customers_of as (select array_agg(id order by id) ids from customers where organization_id = ${organizationId}),
        users_of as (select array_agg(id order by id) ids from users where organization_id = ${organizationId}),
        teams_of as (select array_agg(id order by id) ids from teams where organization_id = ${organizationId}),
        n as (select i, random() < 0.03 as refund, random() r1, random() r2, random() r3, random() r4, random() r5, random() r6,
                random() r7, random() r8, random() r9, random() r10, random() r11, random() r12, random() r13, random() r14
              from generate_series(1, ${counts.tickets}) i),
        w as (select n.*, ${pick(AREAS, 'r1')} area, ${pick(PROBLEMS, 'r2')} problem,
                case when r3 < 0.15 then 'new' when r3 < 0.45 then 'open' when r3 < 0.6 then 'pending' when r3 < 0.85 then 'resolved' else 'closed' end status,
                ${yearAgo}::float8 + (i - 1)::float8 / ${counts.tickets} * 364 * 86400000 created_ms
              from n)
      insert into tickets (id, organization_id, ticket_number, tracking_token, customer_id, subject, description, status, priority, category,
        assigned_user_id, assigned_team_id, due_date, created_at, updated_at, resolved_at, closed_at)
      select gen_random_uuid()::text, ${organizationId}, i, gen_random_uuid()::text,
        c.ids[1 + floor(r4 * cardinality(c.ids))::int],
        case when refund and r5 < 0.5 then 'Refund request: ' else '' end || upper(left(area, 1)) || substr(area, 2) || ' ' || problem,
        ${pick(OPENERS, 'r6')} || ' The ' || area || ' ' || problem || '. ' || ${pick(DETAILS, 'r7')} || ' '
          || case when refund then ${pick(REFUND, 'r8')} else ${pick(DETAILS, 'r8')} end || ' Thanks!',
        status,
        case when r9 < 0.25 then 'low' when r9 < 0.7 then 'medium' when r9 < 0.92 then 'high' else 'urgent' end,
        (array['billing', 'technical', 'account', 'shipping', 'feature-request', null])[1 + floor(r10 * 6)::int],
        case when r11 < 0.7 then u.ids[1 + floor(r12 * cardinality(u.ids))::int] end,
        case when r13 < 0.6 then tm.ids[1 + floor(r14 * cardinality(tm.ids))::int] end,
        null, ${iso('created_ms')}, ${iso('created_ms')},
        case when status in ('resolved', 'closed') then ${iso(`least(created_ms + 3600000, ${now})`)} end,
        case when status = 'closed' then ${iso(`least(created_ms + 7200000, ${now})`)} end
      from w, customers_of c, users_of u, teams_of tm`.execute(db);
    for (const index of gin.rows) await sql.raw(index.indexdef).execute(db);
    await sql`update organizations set ticket_counter = ${counts.tickets} where id = ${organizationId}`.execute(db);
    await sql`vacuum analyze`.execute(db);
  });
  await own.destroy();
}
