import { sql, type Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types */

/**
 * SLA policies (docs/api-behaviour.md, SLA policies): an organization's ordered policies, and on
 * each ticket its SLA clocks (`sla`, JSON), the earliest due time of a running clock
 * (`sla_next_due_at`, for views) and the next instant the sweeper has work on it
 * (`next_sla_deadline_at`: a warning or a breach), indexed so the sweeper reads only what is due.
 * `job_leases` lets one process of a fleet run a job at a time.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('sla_policies')
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('conditions', 'text', (c) => c.notNull())
    .addColumn('business_hours_id', 'text')
    .addColumn('targets', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('sla_policies_pkey', ['organization_id', 'id'])
    .execute();
  await db.schema.createIndex('sla_policies_org_position_idx').on('sla_policies').columns(['organization_id', 'position', 'created_at']).execute();
  await db.schema.alterTable('tickets').addColumn('sla', 'text').execute();
  await db.schema.alterTable('tickets').addColumn('sla_next_due_at', 'text').execute();
  await db.schema.alterTable('tickets').addColumn('next_sla_deadline_at', 'text').execute();
  await db.schema.createIndex('tickets_org_sla_next_due_idx').on('tickets').columns(['organization_id', 'sla_next_due_at', 'ticket_number']).where(sql.ref('sla_next_due_at'), 'is not', null).execute();
  // Only tickets with a clock still to fire are in it: the sweeper's read costs what is due, not how many tickets there are.
  await sql`create index tickets_next_sla_deadline_idx on tickets (next_sla_deadline_at) where next_sla_deadline_at is not null`.execute(db);
  await db.schema
    .createTable('job_leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('owner', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('job_leases').ifExists().execute();
  await db.schema.dropIndex('tickets_next_sla_deadline_idx').ifExists().execute();
  await db.schema.dropIndex('tickets_org_sla_next_due_idx').ifExists().execute();
  await db.schema.alterTable('tickets').dropColumn('next_sla_deadline_at').execute();
  await db.schema.alterTable('tickets').dropColumn('sla_next_due_at').execute();
  await db.schema.alterTable('tickets').dropColumn('sla').execute();
  await db.schema.dropTable('sla_policies').ifExists().execute();
}
