import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Store } from '../src/db/store.js';
import { seedDashboard } from './dashboard-seed.js';

/**
 * The views bench's data: bench/dashboard-seed.ts's tickets (made by the database), then, also by
 * the database, tags and three custom fields, derived from the ticket number so every run has the
 * same ones:
 * - tags: `billing` on 1 ticket in 3, `vip` on 1 in 20, `refund` on 1 in 100;
 * - `plan` (dropdown free / pro / enterprise): enterprise 1 in 10, pro 3 in 10, free the rest;
 * - `seats` (number): 0 to 499, spread evenly;
 * - `renewal` (date): 2026-01-01 plus 0 to 729 days.
 * The tickets' own `tags` and `custom_fields` say the same (one UPDATE), and tag_counts is filled.
 */
export const FIELD_KEYS = ['plan', 'seats', 'renewal'] as const;

export async function seedViews(store: Store, organizationId: string, tickets: number, log: (text: string) => void): Promise<void> {
  const { db, dialect } = store;
  const pg = dialect === 'postgres';
  const started = performance.now();
  const took = () => `${((performance.now() - started) / 1000).toFixed(0)} s`;
  await seedDashboard(store, organizationId, tickets, (done) => {
    if (done % 250_000 === 0 && done < tickets) log(`  ${done.toLocaleString('en')} tickets (${took()})`);
  });
  log(`  ${tickets.toLocaleString('en')} tickets (${took()}); tags and custom fields...`);
  const now = new Date().toISOString();
  const ids = { plan: randomUUID(), seats: randomUUID(), renewal: randomUUID() };
  await db
    .insertInto('ticket_fields')
    .values([
      { id: ids.plan, organization_id: organizationId, key: 'plan', label: 'Plan', type: 'dropdown', options: JSON.stringify(['free', 'pro', 'enterprise']), required: 0, created_at: now, updated_at: now },
      { id: ids.seats, organization_id: organizationId, key: 'seats', label: 'Seats', type: 'number', options: null, required: 0, created_at: now, updated_at: now },
      { id: ids.renewal, organization_id: organizationId, key: 'renewal', label: 'Renewal', type: 'date', options: null, required: 0, created_at: now, updated_at: now },
    ])
    .execute();
  const n = 'ticket_number';
  const plan = `(case when ${n} % 10 = 0 then 'enterprise' when ${n} % 10 < 4 then 'pro' else 'free' end)`;
  const seats = `((${n} * 7919) % 500)`;
  const renewal = pg ? `to_char(date '2026-01-01' + cast(${n} % 730 as integer), 'YYYY-MM-DD')` : `date('2026-01-01', '+' || (${n} % 730) || ' days')`;
  const tagRules: Array<[string, string]> = [['billing', `${n} % 3 = 0`], ['refund', `${n} % 100 = 7`], ['vip', `${n} % 20 = 0`]];
  const org = `'${organizationId}'`;
  const statements = [
    ...tagRules.map(([tag, rule]) => `insert into ticket_tags (organization_id, tag, ticket_number, ticket_id) select ${org}, '${tag}', ${n}, id from tickets where organization_id = ${org} and ${rule}`),
    `insert into tag_counts (organization_id, tag, ticket_count) select ${org}, tag, count(*) from ticket_tags where organization_id = ${org} group by tag`,
    `insert into ticket_field_values (id, organization_id, field_id, ticket_id, ticket_number, value_text, value_number) select 'p' || ${n}, ${org}, '${ids.plan}', id, ${n}, ${plan}, null from tickets where organization_id = ${org}`,
    `insert into ticket_field_values (id, organization_id, field_id, ticket_id, ticket_number, value_text, value_number) select 's' || ${n}, ${org}, '${ids.seats}', id, ${n}, null, ${seats} from tickets where organization_id = ${org}`,
    `insert into ticket_field_values (id, organization_id, field_id, ticket_id, ticket_number, value_text, value_number) select 'r' || ${n}, ${org}, '${ids.renewal}', id, ${n}, ${renewal}, null from tickets where organization_id = ${org}`,
    `update tickets set
       tags = '[' || rtrim(${tagRules.map(([tag, rule]) => `(case when ${rule} then '"${tag}",' else '' end)`).join(' || ')}, ',') || ']',
       custom_fields = '{"plan":"' || ${plan} || '","renewal":"' || ${renewal} || '","seats":' || ${seats} || '}'
     where organization_id = ${org}`,
  ];
  for (const statement of statements) {
    await db.transaction().execute(async (trx) => {
      await sql.raw(statement).execute(trx);
    });
    log(`  ${statement.slice(0, 60).replace(/\s+/g, ' ')}... (${took()})`);
  }
  if (pg) await sql`vacuum analyze`.execute(db);
  else await sql`analyze`.execute(db);
  log(`  seeded in ${took()}`);
}
