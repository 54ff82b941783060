import type { Kysely } from 'kysely';

/* eslint-disable @typescript-eslint/no-explicit-any -- migrations must not depend on today's table types */

/**
 * A comment names the ticket's attachments it carries (docs/api-behaviour.md#email: a public
 * agent comment is mailed with them): a JSON array of attachment ids, null for none. Deleting an
 * attachment takes its id out of the comments that name it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('comments').addColumn('attachment_ids', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('comments').dropColumn('attachment_ids').execute();
}
