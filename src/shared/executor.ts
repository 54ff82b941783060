import type { Kysely, Transaction } from 'kysely';
import type { Database } from '../db/types.js';

/** What repository functions take first: the database or an open transaction (owned by a service). */
export type Executor = Kysely<Database> | Transaction<Database>;
