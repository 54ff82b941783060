import { SqliteAdapter, type Kysely } from 'kysely';

export type DialectName = 'sqlite' | 'postgres';

/** True when a DATABASE_URL names PostgreSQL (production mode) rather than a SQLite file. */
export const isPostgresUrl = (url: string | undefined): boolean => url !== undefined && /^postgres(ql)?:\/\//i.test(url);

/** Which SQL dialect a Kysely instance speaks; migrations branch on it only where unavoidable. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function dialectOf(db: Kysely<any>): DialectName {
  return db.getExecutor().adapter instanceof SqliteAdapter ? 'sqlite' : 'postgres';
}
