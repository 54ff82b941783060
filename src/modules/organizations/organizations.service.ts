import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import { nowIso } from '../../shared/time.js';
import { countOrganizations, insertOrganization, lockForBootstrap } from './organizations.repository.js';
import { createApiKey } from '../../auth/keys.service.js';
import { apiKeyCreated } from '../api-keys/api-keys.service.js';
import { eventLogOf, SYSTEM_ACTOR } from '../events/events.log.js';

export async function createOrganization(db: Kysely<Database>, name: string): Promise<string> {
  const id = randomUUID();
  await insertOrganization(db, { id, name, created_at: nowIso() });
  return id;
}

/**
 * On the first start with an empty store: the default organization and its first admin key.
 * Returns the plain key (to be shown once), or null when the store was not empty.
 */
export async function bootstrapIfEmpty(db: Kysely<Database>): Promise<{ organizationId: string; key: string } | null> {
  return db.transaction().execute(async (trx) => {
    await lockForBootstrap(trx);
    if ((await countOrganizations(trx)) > 0) return null;
    const organizationId = randomUUID();
    await insertOrganization(trx, { id: organizationId, name: 'Default organization', created_at: nowIso() });
    const { key, record } = await createApiKey(trx, { organizationId, role: 'admin', name: 'Initial admin key' });
    const events = eventLogOf(trx, organizationId, SYSTEM_ACTOR);
    events.add(apiKeyCreated(record));
    await events.seal();
    return { organizationId, key };
  });
}
