import { randomUUID } from 'node:crypto';
import type { Updateable } from 'kysely';
import type { Store } from '../../db/store.js';
import type { TicketFieldsTable } from '../../db/types.js';
import { errors } from '../../errors.js';
import { isUniqueViolation } from '../customers/customers.repository.js';
import { withEvents, type Actor } from '../events/events.log.js';
import { clearCustomField } from '../tickets/tickets.service.js';
import type { Executor } from '../../shared/executor.js';
import type { Page } from '../../shared/pagination.js';
import { nowIso, toIso } from '../../shared/time.js';
import {
  countTicketFields,
  deleteTicketField as deleteTicketFieldRow,
  findTicketField,
  insertTicketField,
  listTicketFields as listTicketFieldRows,
  ticketFieldKeyTaken,
  ticketIdsWithField,
  updateTicketField as updateTicketFieldRow,
  type TicketFieldRow,
} from './ticket-fields.repository.js';
import { lockCollection } from '../organizations/organizations.repository.js';
import { MAX_FIELDS_PER_ORGANIZATION, type CreateTicketFieldBody, type TicketField, type UpdateTicketFieldBody } from './ticket-fields.schemas.js';
import { optionsOf } from './ticket-fields.values.js';

export function presentTicketField(row: TicketFieldRow): TicketField {
  return {
    id: row.id,
    key: row.key,
    label: row.label,
    type: row.type,
    options: optionsOf(row),
    required: row.required === 1,
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  };
}

const CHOICES = ['dropdown', 'multiselect'];

/** Options only for a dropdown or multiselect, and then at least one, all distinct. */
function checkOptions(type: string, options: string[] | undefined): string | null {
  if (!CHOICES.includes(type)) {
    if (options !== undefined) throw errors.invalidField('body.options', `only a dropdown or multiselect field has options, not a ${type} field`);
    return null;
  }
  if (options === undefined || options.length === 0) throw errors.invalidField('body.options', `a ${type} field needs at least one option`);
  if (new Set(options).size !== options.length) throw errors.invalidField('body.options', 'must be distinct');
  return JSON.stringify(options);
}

export async function createTicketField(store: Store, organizationId: string, body: CreateTicketFieldBody): Promise<TicketField> {
  const options = checkOptions(body.type, body.options);
  const taken = () => errors.conflict(`A custom field with key '${body.key}' already exists`);
  const created = store.db.transaction().execute(async (trx) => {
    // Counted under the collection's lock, so concurrent creates cannot pass the cap (src/limits/collection-caps.ts).
    await lockCollection(trx, organizationId, 'ticket_fields');
    if ((await countTicketFields(trx, organizationId)) >= MAX_FIELDS_PER_ORGANIZATION) {
      throw errors.invalidField('body.key', `an organization has at most ${MAX_FIELDS_PER_ORGANIZATION} custom fields: delete one first`);
    }
    if (await ticketFieldKeyTaken(trx, organizationId, body.key)) throw taken();
    const now = nowIso();
    const row = {
      id: randomUUID(),
      organization_id: organizationId,
      key: body.key,
      label: body.label,
      type: body.type,
      options,
      required: body.required ? 1 : 0,
      created_at: now,
      updated_at: now,
    };
    await insertTicketField(trx, row);
    return presentTicketField(row);
  });
  // Two creates of one key at once: the unique index refuses the second.
  return created.catch((error: unknown) => {
    throw isUniqueViolation(error) ? taken() : error;
  });
}

async function getRow(db: Executor, organizationId: string, id: string): Promise<TicketFieldRow> {
  const row = await findTicketField(db, organizationId, id);
  if (!row) throw errors.notFound('Custom field');
  return row;
}

export async function getTicketField(store: Store, organizationId: string, id: string): Promise<TicketField> {
  return presentTicketField(await getRow(store.db, organizationId, id));
}

export async function listTicketFields(store: Store, organizationId: string, page: Page): Promise<TicketField[]> {
  return (await listTicketFieldRows(store.db, organizationId, page)).map(presentTicketField);
}

/** Label, options and required change; key and type never do. Values already given keep options since removed. */
export async function updateTicketField(store: Store, organizationId: string, id: string, body: UpdateTicketFieldBody): Promise<TicketField> {
  return store.db.transaction().execute(async (trx) => {
    const current = await getRow(trx, organizationId, id);
    const changes: Updateable<TicketFieldsTable> = {};
    if (body.label !== undefined) changes.label = body.label;
    if (body.options !== undefined) changes.options = checkOptions(current.type, body.options);
    if (body.required !== undefined) changes.required = body.required ? 1 : 0;
    if (Object.keys(changes).length === 0) return presentTicketField(current);
    changes.updated_at = nowIso();
    await updateTicketFieldRow(trx, organizationId, id, changes);
    return presentTicketField({ ...current, ...changes });
  });
}

/** Deletes a definition and its values: each ticket that had one loses the key, with a `ticket.updated` event. */
export async function deleteTicketField(store: Store, organizationId: string, id: string, actor: Actor): Promise<void> {
  await withEvents(store.db, organizationId, actor, async (trx, events) => {
    const field = await getRow(trx, organizationId, id);
    await clearCustomField(trx, events, organizationId, await ticketIdsWithField(trx, organizationId, id), field.key);
    await deleteTicketFieldRow(trx, organizationId, id);
  });
}
