import { SqliteAdapter, type Kysely } from 'kysely';

export type DialectName = 'sqlite' | 'postgres';

/** Which SQL dialect a Kysely instance speaks; migrations branch on it only where unavoidable. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function dialectOf(db: Kysely<any>): DialectName {
  return db.getExecutor().adapter instanceof SqliteAdapter ? 'sqlite' : 'postgres';
}
