import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types */

/**
 * Tickets carry tags (docs/api-behaviour.md, Tags):
 * - `tickets.tags`, the ticket's sorted tags as a JSON array, so every read of a ticket (the list,
 *   the get-by-id fast path, the create writers) has them without a second read;
 * - `ticket_tags`, one row per tag of a ticket, keyed (organization, tag, ticket number): a tag
 *   filter reads one tag's tickets newest first straight from that key;
 * - `tag_counts`, the organization's tags with how many tickets carry each, kept in the same
 *   transaction as the ticket's change, with an index in the order `GET /v1/tags` lists them.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('tickets').addColumn('tags', 'text', (c) => c.notNull().defaultTo('[]')).execute();
  await db.schema
    .createTable('ticket_tags')
    .addColumn('organization_id', 'text', (c) => c.notNull())
    .addColumn('tag', 'text', (c) => c.notNull())
    .addColumn('ticket_number', 'bigint', (c) => c.notNull())
    .addColumn('ticket_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('ticket_tags_pkey', ['organization_id', 'tag', 'ticket_number'])
    .addForeignKeyConstraint('ticket_tags_ticket_id_fkey', ['organization_id', 'ticket_id'], 'tickets', ['organization_id', 'id'], (fk) =>
      fk.onDelete('cascade'),
    )
    .execute();
  // A ticket's own tags (to change or delete them), and what the cascade from tickets searches.
  await db.schema.createIndex('ticket_tags_org_ticket_idx').on('ticket_tags').columns(['organization_id', 'ticket_id']).execute();
  await db.schema
    .createTable('tag_counts')
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('tag', 'text', (c) => c.notNull())
    .addColumn('ticket_count', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('tag_counts_pkey', ['organization_id', 'tag'])
    .execute();
  await db.schema.createIndex('tag_counts_org_count_idx').on('tag_counts').columns(['organization_id', 'ticket_count desc', 'tag']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('tag_counts').execute();
  await db.schema.dropTable('ticket_tags').execute();
  await db.schema.alterTable('tickets').dropColumn('tags').execute();
}
