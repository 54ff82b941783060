import { createHash } from 'node:crypto';
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import type { Store } from '../../db/store.js';
import { toIso, toIsoOrNull } from '../../shared/time.js';
import type { BlobStore } from '../../storage/blob-store.js';
import { organizationExists } from './organizations.repository.js';
import {
  attachmentIdsPage,
  deleteOrganizationRow,
  insertOrganizationRow,
  insertRows,
  ORGANIZATION_COLUMNS,
  readOrganizationRow,
  readRowsPage,
  TRANSFER_TABLES,
  type ColumnKind,
  type RawRow,
  type TransferTable,
} from './transfer.repository.js';

/**
 * The export format: newline-delimited JSON, one record per line, written and read as a stream
 * so neither side ever holds more than a page of rows or one chunk of a file.
 *
 *   {"format":"ticketing-export","version":1,"exported_at":…,"organization_id":…,"organization_name":…}
 *   {"type":"row","table":"organizations","row":{…}}
 *   {"type":"file","id":<attachment id>,"data":<base64 chunk>}          zero or more per file
 *   {"type":"file_end","id":…,"size_bytes":…,"sha256":<hex>}            one per file
 *   {"type":"row","table":"users","row":{…}}                             then every table in order
 *   {"type":"end","counts":{"organizations":1,"users":…,…,"files":…}}
 *
 * Files come before the rows that refer to them so that the import can stage them before it opens
 * its transaction; the closing counts let the import tell a complete file from a truncated one.
 */
export const EXPORT_FORMAT = 'ticketing-export';
export const EXPORT_VERSION = 1;

const PAGE_SIZE = 500;
const INSERT_BATCH = 100;
/** Raw bytes per `file` line (a multiple of 3, so no line's base64 needs padding but the last). */
const FILE_CHUNK_BYTES = 192 * 1024;

/** A problem with an export or import the user must fix; the message says what and where. */
export class TransferError extends Error {}

export interface TransferDeps {
  store: Store;
  blobs: BlobStore;
}

export type TransferCounts = Record<string, number>;

export interface TransferSummary {
  organizationId: string;
  organizationName: string;
  counts: TransferCounts;
  fileBytes: number;
}

/** Writes one line (without its newline); resolves when the sink can take more. */
export type LineSink = (line: string) => Promise<void>;

// ---------------------------------------------------------------------------------------------
// Export

/**
 * Streams one organization — its row with the ticket counter, users, customers, teams and their
 * members, tickets, comments, attachments with their bytes, and API keys (hashes, so keys keep
 * working) — to `write`. For an exact copy nothing should write to the organization meanwhile.
 */
export async function exportOrganization(deps: TransferDeps, organizationId: string, write: LineSink): Promise<TransferSummary> {
  const { db } = deps.store;
  const organization = await readOrganizationRow(db, organizationId);
  if (!organization) throw new TransferError(`No organization with id ${organizationId} in this store`);
  const name = String(organization.name);
  await write(
    JSON.stringify({
      format: EXPORT_FORMAT,
      version: EXPORT_VERSION,
      exported_at: new Date().toISOString(),
      organization_id: organizationId,
      organization_name: name,
    }),
  );

  await write(JSON.stringify({ type: 'row', table: 'organizations', row: encodeRow(ORGANIZATION_COLUMNS, organization) }));
  const counts: TransferCounts = { organizations: 1 };
  let files = 0;
  let fileBytes = 0;
  for (let after: string | null = null; ; ) {
    const ids = await attachmentIdsPage(db, organizationId, after, PAGE_SIZE);
    for (const id of ids) {
      fileBytes += await exportFile(deps.blobs, id, write);
      files++;
    }
    if (ids.length < PAGE_SIZE) break;
    after = ids[ids.length - 1]!;
  }

  for (const spec of TRANSFER_TABLES) {
    counts[spec.table] = 0;
    for (let after: unknown[] | null = null; ; ) {
      const rows = await readRowsPage(db, spec, organizationId, after, PAGE_SIZE);
      for (const row of rows) await write(JSON.stringify({ type: 'row', table: spec.table, row: encodeRow(spec.columns, row) }));
      counts[spec.table]! += rows.length;
      if (rows.length < PAGE_SIZE) break;
      const last = rows[rows.length - 1]!;
      after = spec.key.map((column) => last[column]);
    }
  }
  counts.files = files;
  await write(JSON.stringify({ type: 'end', counts }));
  return { organizationId, organizationName: name, counts, fileBytes };
}

/**
 * Streams one file as `file` lines of exactly FILE_CHUNK_BYTES (the last one shorter), whatever
 * chunks the backend reads in, so that an export does not depend on where the bytes were stored.
 */
async function exportFile(blobs: BlobStore, id: string, write: LineSink): Promise<number> {
  const hash = createHash('sha256');
  let size = 0;
  let pending: Buffer = Buffer.alloc(0);
  const emit = async (piece: Buffer): Promise<void> => {
    hash.update(piece);
    size += piece.length;
    await write(JSON.stringify({ type: 'file', id, data: piece.toString('base64') }));
  };
  try {
    for await (const chunk of blobs.open(id)) {
      pending = pending.length === 0 ? (chunk as Buffer) : Buffer.concat([pending, chunk as Buffer]);
      let start = 0;
      for (; pending.length - start >= FILE_CHUNK_BYTES; start += FILE_CHUNK_BYTES) await emit(pending.subarray(start, start + FILE_CHUNK_BYTES));
      pending = pending.subarray(start);
    }
    if (pending.length > 0) await emit(pending);
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    throw new TransferError(`Cannot read the stored file of attachment ${id}${typeof code === 'string' ? ` (${code})` : ''}`);
  }
  await write(JSON.stringify({ type: 'file_end', id, size_bytes: size, sha256: hash.digest('hex') }));
  return size;
}

/** A row as the export carries it: the same on every dialect. */
function encodeRow(columns: Record<string, ColumnKind>, row: RawRow): RawRow {
  const out: RawRow = {};
  for (const [column, kind] of Object.entries(columns)) {
    const value = row[column];
    if (value === null || value === undefined) {
      out[column] = null;
    } else if (kind === 'timestamp') {
      out[column] = toIsoOrNull(value as string | Date);
    } else if (kind === 'boolean') {
      out[column] = typeof value === 'boolean' ? value : Number(value) !== 0;
    } else if (kind === 'integer' || kind === 'number') {
      out[column] = Number(value);
    } else if (kind === 'bytes') {
      out[column] = Buffer.from(value as Uint8Array).toString('base64');
    } else {
      out[column] = value;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Import

type Line = Record<string, unknown>;

/**
 * Reads an export and recreates the organization, all or nothing, with the same two phases as an
 * upload: the organization row (which owns the staged bytes), then every file staged, then every
 * other row in one transaction, and only once it has committed are the files published. Any
 * problem — the organization already exists, a malformed or truncated export, a checksum
 * mismatch, a constraint — rolls the transaction back, discards the staged files and removes the
 * organization row. Until the transaction commits the organization has no API key, so nothing of
 * a half-done import can be reached through the API.
 */
export async function importOrganization(deps: TransferDeps, input: AsyncIterable<string>): Promise<TransferSummary> {
  const reader = new LineReader(input);
  const header = await reader.next();
  if (!header || header.format !== EXPORT_FORMAT) throw new TransferError('Not a ticketing export: the first line has no "format":"ticketing-export"');
  if (header.version !== EXPORT_VERSION) throw new TransferError(`Unsupported export version ${String(header.version)} (this version reads ${EXPORT_VERSION})`);
  const organizationId = header.organization_id;
  if (typeof organizationId !== 'string') throw reader.error('organization_id is missing');
  const first = await reader.expectNext();
  if (first.type !== 'row' || first.table !== 'organizations') throw reader.error('expected the organization row');
  const organization = decodeRow(reader, ORGANIZATION_COLUMNS, first.row);
  if (organization.id !== organizationId) throw reader.error('the organization row does not match the header');
  if (await organizationExists(deps.store.db, organizationId)) {
    throw new TransferError(`Organization ${organizationId} already exists in this store; nothing was imported`);
  }
  // The organization row goes first, alone: staged files belong to it (the database backend keeps
  // the owner on every chunk). It has no API key yet, so nobody can reach it until the end.
  await insertOrganizationRow(deps.store.db, organization);

  const staged = new Map<string, number>();
  const counts: TransferCounts = { organizations: 1 };
  let fileBytes = 0;
  try {
    let line = await reader.expectNext();
    while (line.type === 'file' || line.type === 'file_end') {
      fileBytes += await stageFile(deps.blobs, reader, line, staged, organizationId);
      line = await reader.expectNext();
    }
    const firstRow = line;
    await deps.store.db.transaction().execute(async (trx) => {
      let tableIndex = 0;
      let batch: RawRow[] = [];
      const flush = async (): Promise<void> => {
        await insertRows(trx, TRANSFER_TABLES[tableIndex]!.table, batch);
        batch = [];
      };
      for (let next = firstRow; ; next = await reader.expectNext()) {
        if (next.type === 'end') {
          await flush();
          checkCounts(reader, next.counts, { ...counts, files: staged.size });
          break;
        }
        if (next.type !== 'row') throw reader.error(`unexpected record type ${JSON.stringify(next.type)}`);
        const index = TRANSFER_TABLES.findIndex((t) => t.table === next.table);
        if (index < tableIndex) throw reader.error(`unknown table or table out of order: ${JSON.stringify(next.table)}`);
        if (index > tableIndex) {
          await flush();
          tableIndex = index;
        }
        const spec = TRANSFER_TABLES[tableIndex]!;
        const row = decodeRow(reader, spec.columns, next.row, spec.optional);
        try {
          spec.upgrade?.(row);
        } catch {
          throw reader.error(`a ${spec.table} row could not be brought up to date: it is damaged`);
        }
        if (row.organization_id !== organizationId) throw reader.error('the row belongs to another organization');
        if (spec.table === 'attachments') checkAttachmentFile(reader, row, staged);
        batch.push(row);
        counts[spec.table] = (counts[spec.table] ?? 0) + 1;
        if (batch.length >= INSERT_BATCH) await flush();
      }
      if ((await reader.next()) !== null) throw reader.error('content after the end record');
      const withRows = counts.attachments ?? 0;
      if (withRows !== staged.size) throw new TransferError(`The export has ${staged.size} files but ${withRows} attachments`);
    });
  } catch (error) {
    // The transaction rolled back; what remains is the organization row and the staged files.
    await Promise.all([...staged.keys()].map((id) => deps.blobs.discard(id).catch(() => undefined)));
    await deleteOrganizationRow(deps.store.db, organizationId);
    throw error;
  }
  // The rows are committed: move the files into place. A crash here is finished by the sweep.
  for (const id of staged.keys()) await deps.blobs.publish(id);
  counts.files = staged.size;
  return { organizationId, organizationName: typeof header.organization_name === 'string' ? header.organization_name : '', counts, fileBytes };
}

/** Streams one file's `file` lines into the blob store's staging; checks its size and checksum. */
async function stageFile(blobs: BlobStore, reader: LineReader, first: Line, staged: Map<string, number>, organizationId: string): Promise<number> {
  const id = first.id;
  if (typeof id !== 'string' || !/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) throw reader.error('a file line has no valid id');
  if (staged.has(id)) throw reader.error(`file ${id} appears twice`);
  const source = new PassThrough();
  const staging = blobs.stage(id, source, { organizationId });
  // Marked before anything can fail, so a failure discards whatever was staged.
  staged.set(id, 0);
  const stagingFailed = staging.then(
    () => Promise.reject(new TransferError(`storage stopped reading file ${id} early`)),
    (error: unknown) => Promise.reject(error instanceof Error ? error : new Error(String(error))),
  );
  stagingFailed.catch(() => undefined);
  const hash = createHash('sha256');
  let size = 0;
  let line = first;
  try {
    while (line.type === 'file') {
      if (line.id !== id) throw reader.error(`file ${id} ends without its file_end line`);
      if (typeof line.data !== 'string') throw reader.error('a file line has no data');
      const bytes = Buffer.from(line.data, 'base64');
      hash.update(bytes);
      size += bytes.length;
      if (!source.write(bytes)) await Promise.race([once(source, 'drain'), stagingFailed]);
      line = await reader.expectNext();
    }
    if (line.type !== 'file_end' || line.id !== id) throw reader.error(`file ${id} ends without its file_end line`);
    source.end();
  } catch (error) {
    source.destroy();
    await staging.catch(() => undefined);
    throw error;
  }
  const written = await staging;
  if (size !== line.size_bytes || written !== size || hash.digest('hex') !== line.sha256) {
    throw reader.error(`file ${id} is damaged: its size or SHA-256 does not match`);
  }
  staged.set(id, size);
  return size;
}

function checkAttachmentFile(reader: LineReader, row: RawRow, staged: Map<string, number>): void {
  const size = staged.get(String(row.id));
  if (size === undefined) throw reader.error(`attachment ${String(row.id)} has no file in the export`);
  if (size !== row.size_bytes) throw reader.error(`attachment ${String(row.id)} says ${String(row.size_bytes)} bytes, its file has ${size}`);
}

function checkCounts(reader: LineReader, declared: unknown, seen: TransferCounts): void {
  if (typeof declared !== 'object' || declared === null) throw reader.error('the end record has no counts');
  const counts = declared as Record<string, unknown>;
  for (const table of new Set([...Object.keys(counts), ...Object.keys(seen)])) {
    const count = counts[table] ?? 0;
    if ((seen[table] ?? 0) !== count) {
      throw reader.error(`the export declares ${JSON.stringify(count)} ${table} but holds ${seen[table] ?? 0}: it is incomplete or damaged`);
    }
  }
}

/** Checks a row from the file column by column and converts it for the store. */
function decodeRow(reader: LineReader, columns: Record<string, ColumnKind>, raw: unknown, optional: readonly string[] = []): RawRow {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw reader.error('a row is not an object');
  const input = raw as RawRow;
  for (const column of Object.keys(input)) {
    if (!(column in columns)) throw reader.error(`unknown column ${JSON.stringify(column)}`);
  }
  const out: RawRow = {};
  for (const [column, kind] of Object.entries(columns)) {
    if (!(column in input) && optional.includes(column)) continue;
    if (!(column in input)) throw reader.error(`column ${column} is missing`);
    const value = input[column];
    if (value === null) {
      out[column] = null;
      continue;
    }
    const bad = (): TransferError => reader.error(`column ${column} is not a valid ${kind}`);
    switch (kind) {
      case 'text':
        if (typeof value !== 'string') throw bad();
        out[column] = value;
        break;
      case 'timestamp':
        if (typeof value !== 'string' || !Number.isFinite(Date.parse(value))) throw bad();
        out[column] = toIso(value);
        break;
      case 'boolean':
        if (typeof value !== 'boolean') throw bad();
        out[column] = value ? 1 : 0;
        break;
      case 'integer':
        if (!Number.isSafeInteger(value)) throw bad();
        out[column] = value;
        break;
      case 'number':
        if (typeof value !== 'number' || !Number.isFinite(value)) throw bad();
        out[column] = value;
        break;
      case 'bytes':
        if (typeof value !== 'string' || !/^[A-Za-z0-9+/]*={0,2}$/.test(value)) throw bad();
        out[column] = Buffer.from(value, 'base64');
        break;
    }
  }
  return out;
}

/** Parses the input a line at a time, keeping the line number for messages. */
class LineReader {
  private readonly iterator: AsyncIterator<string>;
  private lineNumber = 0;

  constructor(input: AsyncIterable<string>) {
    this.iterator = input[Symbol.asyncIterator]();
  }

  error(message: string): TransferError {
    return new TransferError(`Line ${this.lineNumber} of the export: ${message}`);
  }

  /** The next record, or null at the end of the input. Blank lines are skipped. */
  async next(): Promise<Line | null> {
    for (;;) {
      const result = await this.iterator.next();
      if (result.done) return null;
      this.lineNumber++;
      if (result.value.trim() === '') continue;
      let parsed: unknown;
      try {
        parsed = JSON.parse(result.value);
      } catch {
        throw this.error('not valid JSON');
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw this.error('not a JSON object');
      return parsed as Line;
    }
  }

  async expectNext(): Promise<Line> {
    const line = await this.next();
    if (line === null) throw new TransferError('The export ends early (no end record): it is incomplete; nothing was imported');
    return line;
  }
}

export type { TransferTable };
