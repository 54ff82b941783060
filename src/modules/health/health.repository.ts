import { sql } from 'kysely';
import type { Executor } from '../../shared/executor.js';

/** The cheapest round trip the store can make: proves a connection can be had and answers. */
export async function pingStore(db: Executor): Promise<void> {
  await sql`select 1`.execute(db);
}
