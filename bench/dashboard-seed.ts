import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Store } from '../src/db/store.js';

/**
 * A fast seed for the dashboard bench: tickets made by the database itself (a recursive CTE on
 * SQLite, generate_series on PostgreSQL), a million in a minute or two rather than the general
 * seeder's many minutes. The figures the dashboard reads follow bench/seed.ts: created evenly over
 * the last 364 days, status new 15% / open 30% / pending 15% / resolved 25% / closed 15%, priority
 * low 25% / medium 45% / high 22% / urgent 8%, 70% with one of 8 agents, 60% with one of 4 teams,
 * a due date on 40% (1 to 14 days after creation), resolution 5 minutes to 14 days after creation
 * (log-uniform), never in the future. Subjects and descriptions are short: the dashboard never
 * reads them. The triggers of migration 0012 write a delta per ticket, as for any insert.
 */
const DAY_S = 86_400;
const CHUNK = 100_000;

export async function seedDashboard(store: Store, organizationId: string, tickets: number, onProgress: (done: number) => void = () => undefined): Promise<void> {
  const { db, dialect } = store;
  const now = new Date().toISOString();
  const userIds = Array.from({ length: 8 }, () => randomUUID());
  const teamIds = Array.from({ length: 4 }, () => randomUUID());
  const customerId = randomUUID();
  await db.transaction().execute(async (trx) => {
    for (const [i, id] of userIds.entries()) {
      const email = `agent${i}@dashboard-bench.example.com`;
      await trx.insertInto('users').values({ id, organization_id: organizationId, email, email_normalized: email, full_name: `Agent ${i}`, role: 'agent', is_active: 1, created_at: now, updated_at: now }).execute();
    }
    for (const [i, id] of teamIds.entries()) {
      await trx.insertInto('teams').values({ id, organization_id: organizationId, name: `Team ${i}`, description: null, created_at: now, updated_at: now }).execute();
    }
    await trx
      .insertInto('customers')
      .values({ id: customerId, organization_id: organizationId, name: 'Bench customer', email: 'c@dashboard-bench.example.com', email_normalized: 'c@dashboard-bench.example.com', has_premium_support: 0, is_vip: 0, created_at: now, updated_at: now })
      .execute();
  });
  const nowS = Date.now() / 1000;
  const startS = nowS - 365 * DAY_S;
  const pg = dialect === 'postgres';
  // Uniform [0, 1) per row and purpose.
  const u = pg ? 'random()' : '((random() & 9007199254740991) / 9007199254740992.0)';
  const iso = (seconds: string) =>
    pg ? `to_char(to_timestamp(${seconds}) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')` : `strftime('%Y-%m-%dT%H:%M:%fZ', ${seconds}, 'unixepoch')`;
  const pickFrom = (ids: string[], share: number) =>
    `case when ${u} < ${share} then (array_or_case) else null end`.replace(
      '(array_or_case)',
      `case cast(floor(${u} * ${ids.length}) as integer) ${ids.map((id, i) => `when ${i} then '${id}'`).join(' ')} else '${ids[0]}' end`,
    );
  const id = pg ? 'gen_random_uuid()::text' : "lower(hex(randomblob(16)))";
  for (let from = 0; from < tickets; from += CHUNK) {
    const count = Math.min(CHUNK, tickets - from);
    const rows = pg
      ? `select g - 1 as i from generate_series(${from + 1}, ${from + count}) g`
      : `select i from s`;
    const cte = pg ? '' : `with recursive s(i) as (select ${from} union all select i + 1 from s where i < ${from + count - 1}) `;
    // Per row: created (seconds), a status draw, then the columns derived from them.
    const query = `${pg ? '' : cte}insert into tickets (id, organization_id, ticket_number, tracking_token, customer_id, subject, description, status, priority,
        assigned_user_id, assigned_team_id, due_date, created_at, updated_at, resolved_at, closed_at)
      select ${id}, '${organizationId}', i + 1, ${id}, '${customerId}', 'Dashboard bench ticket', 'Seeded for the dashboard bench.', status,
        case when p < 0.25 then 'low' when p < 0.70 then 'medium' when p < 0.92 then 'high' else 'urgent' end,
        ${pickFrom(userIds, 0.7)}, ${pickFrom(teamIds, 0.6)},
        case when ${u} < 0.4 then ${iso(`created + ${DAY_S} * (1 + floor(${u} * 14))`)} else null end,
        ${iso('created')}, ${iso('created')},
        case when status in ('resolved', 'closed') then ${iso(`min_s(created + exp(ln(300) + ${u} * ln(${(14 * DAY_S) / 300})), ${nowS})`)} else null end,
        case when status = 'closed' then ${iso(`min_s(created + exp(ln(300) + ${u} * ln(${(14 * DAY_S) / 300})) + ${u} * 2 * ${DAY_S}, ${nowS})`)} else null end
      from (
        select i, created, ${u} as p,
          case when r < 0.15 then 'new' when r < 0.45 then 'open' when r < 0.60 then 'pending' when r < 0.85 then 'resolved' else 'closed' end as status
        from (select i, ${startS} + (i * ${364 * DAY_S}.0 / ${tickets}) as created, ${u} as r from (${rows}) n) c
      ) t`.replace(/min_s\(/g, pg ? 'least(' : 'min(');
    await db.transaction().execute(async (trx) => {
      await sql.raw(query).execute(trx);
    });
    onProgress(from + count);
  }
  await db.updateTable('organizations').set({ ticket_counter: tickets }).where('id', '=', organizationId).execute();
  if (pg) await sql`vacuum analyze`.execute(db);
  else await sql`analyze`.execute(db);
}
