import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../src/db/store.js';
import { DatabaseBlobStore } from '../src/storage/database-store.js';
import { DiskBlobStore } from '../src/storage/disk-store.js';
import { existingAttachmentIds } from '../src/modules/attachments/attachments.repository.js';
import { multipartBody } from './helpers/attachments.js';
import type { TestDatabase } from './helpers/postgres.js';
import { buildCli, listening, spawnServe, waitFor, type Child } from './helpers/processes.js';
import { TEST_STORE, testPostgresDatabase } from './helpers/test-app.js';

/**
 * kill -9 in the middle of writes, again and again, then an audit: every create, patch and upload
 * the service acknowledged is there (numbers unique and gapless, bytes intact), and nothing is left
 * behind but uploads that were still arriving when the process died (staged bytes, which the
 * sweep removes once they are old). Real `ticketing serve` processes on the store of the run:
 * SQLite with files on disk, or PostgreSQL with the bytes in the database.
 */
const CYCLES = 5;
const WORKERS = 4;
const ADMIN_KEY = /Admin API key \(shown once\): (key_admin_\w+)/;

interface Created {
  id: string;
  number: number;
  subject: string;
  /** The subject of a PATCH the service acknowledged, if any. */
  patched?: string;
}

interface Uploaded {
  ticketId: string;
  id: string;
  sha256: string;
  size: number;
}

const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

describe(`kill -9 while writing, ${CYCLES} times (${TEST_STORE})`, () => {
  const dirs: string[] = [];
  let database: TestDatabase | undefined;
  let env: Record<string, string>;
  let dataDir: string;
  let key = '';
  const created = new Map<string, Created>();
  const uploaded: Uploaded[] = [];
  let killedWithRequestsInFlight = 0;

  beforeAll(async () => {
    buildCli();
    dataDir = mkdtempSync(join(tmpdir(), 'ticketing-kill-'));
    dirs.push(dataDir);
    env = { DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'error', RATE_LIMIT_ADMIN_PER_MINUTE: '1000000', RATE_LIMIT_UPLOADS_PER_MINUTE: '1000000' };
    if (TEST_STORE === 'postgres') {
      database = await testPostgresDatabase();
      env.DATABASE_URL = database.url;
      env.SIGNING_SECRET = randomBytes(36).toString('base64');
    }
  }, 200_000);

  afterAll(() => {
    database?.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  async function start(): Promise<Child & { address: string }> {
    const child = spawnServe(env);
    if (!key) key = (await waitFor(child.proc.stdout!, ADMIN_KEY, child.out))[1]!;
    return { ...child, address: await listening(child) };
  }

  const headers = () => ({ authorization: `Bearer ${key}` });

  /** One worker: create, patch, and every third time upload, until the process dies under it. */
  async function worker(address: string, name: string): Promise<void> {
    for (let i = 0; ; i++) {
      const subject = `${name}-${i}`;
      const res = await fetch(`${address}/v1/tickets`, {
        method: 'POST',
        headers: { ...headers(), 'content-type': 'application/json' },
        body: JSON.stringify({ customer_name: 'Kill', customer_email: `kill${i % 7}@example.com`, subject, description: 'written while being killed' }),
      });
      const ticket = (await res.json()) as { id: string; ticket_number: number };
      expect(res.status).toBe(201);
      const record: Created = { id: ticket.id, number: ticket.ticket_number, subject };
      created.set(ticket.id, record);

      const patched = `${subject}-patched`;
      const patch = await fetch(`${address}/v1/tickets/${ticket.id}`, {
        method: 'PATCH',
        headers: { ...headers(), 'content-type': 'application/json' },
        body: JSON.stringify({ subject: patched, priority: 'high' }),
      });
      await patch.arrayBuffer();
      expect(patch.status).toBe(200);
      record.patched = patched;

      if (i % 3 === 0) {
        // Text, as declared: a text/plain upload must really be text (binary content is refused).
        const bytes = Buffer.from(randomBytes(40_000 + Math.floor(Math.random() * 450_000)).toString('base64'));
        const { payload, contentType } = multipartBody([{ name: 'file', filename: `${subject}.txt`, type: 'text/plain', data: bytes }]);
        const up = await fetch(`${address}/v1/tickets/${ticket.id}/attachments`, {
          method: 'POST',
          headers: { ...headers(), 'content-type': contentType },
          body: payload,
        });
        const attachment = (await up.json()) as { id: string };
        expect(up.status).toBe(201);
        uploaded.push({ ticketId: ticket.id, id: attachment.id, sha256: sha256(bytes), size: bytes.length });
      }
    }
  }

  it('loses no acknowledged write, duplicates no number, and leaves nothing behind', async () => {
    for (let cycle = 0; cycle < CYCLES; cycle++) {
      const server = await start();
      const workers = Array.from({ length: WORKERS }, (_, w) =>
        worker(server.address, `c${cycle}w${w}`).then(
          () => undefined,
          // The process died under the request: its outcome is unknown, so it is not counted.
          (error: unknown) => {
            if (!(error instanceof TypeError)) throw error;
            killedWithRequestsInFlight++;
          },
        ),
      );
      await new Promise((resolve) => setTimeout(resolve, 400 + Math.random() * 800));
      server.proc.kill('SIGKILL');
      await server.exited;
      await Promise.all(workers);
    }
    expect(created.size).toBeGreaterThan(CYCLES * WORKERS);
    console.info(
      `[kill-cycles] ${TEST_STORE}: ${CYCLES} kills; acknowledged ${created.size} creates, ` +
        `${[...created.values()].filter((c) => c.patched).length} patches, ${uploaded.length} uploads; ${killedWithRequestsInFlight} requests cut by a kill`,
    );

    // A clean start after the last kill (its start-up sweep reconciles the attachment storage).
    const server = await start();
    try {
      // Every acknowledged create and patch is there, as acknowledged.
      for (const c of created.values()) {
        const res = await fetch(`${server.address}/v1/tickets/${c.id}`, { headers: headers() });
        expect(res.status, c.subject).toBe(200);
        const ticket = (await res.json()) as { ticket_number: number; subject: string; priority: string };
        expect(ticket.ticket_number).toBe(c.number);
        if (c.patched) expect([ticket.subject, ticket.priority]).toEqual([c.patched, 'high']);
        else expect([c.subject, `${c.subject}-patched`]).toContain(ticket.subject);
      }
      // Numbers are unique and gapless: 1..N over every ticket, acknowledged or not.
      const numbers: number[] = [];
      for (let offset = 0; ; offset += 500) {
        const page = (await (await fetch(`${server.address}/v1/tickets?limit=500&offset=${offset}`, { headers: headers() })).json()) as Array<{
          ticket_number: number;
        }>;
        numbers.push(...page.map((t) => t.ticket_number));
        if (page.length < 500) break;
      }
      expect(numbers.sort((a, b) => a - b)).toEqual(Array.from({ length: numbers.length }, (_, i) => i + 1));

      // Every acknowledged upload downloads byte for byte.
      for (const u of uploaded) {
        const link = await fetch(`${server.address}/v1/tickets/${u.ticketId}/attachments/${u.id}/download`, { headers: headers() });
        expect(link.status).toBe(200);
        const signed = new URL(((await link.json()) as { signed_url: string }).signed_url);
        const file = await fetch(`${server.address}${signed.pathname}${signed.search}`);
        expect(file.status).toBe(200);
        expect(sha256(Buffer.from(await file.arrayBuffer()))).toBe(u.sha256);
      }
    } finally {
      server.proc.kill('SIGTERM');
      expect(await server.exited).toBe(0);
    }

    // No orphans: with the service stopped, every stored file or blob has its attachment row and
    // every attachment row its bytes; what remains staged is uploads cut by a kill, which the
    // sweep removes once they are older than the staging TTL (here: now).
    const store = openStore({ dataDir, databaseUrl: env.DATABASE_URL });
    try {
      const rows = new Map(
        (await store.db.selectFrom('attachments').select(['id', 'size_bytes']).execute()).map((r) => [r.id, Number(r.size_bytes)]),
      );
      const stored = await storedAttachments(store);
      expect([...stored.keys()].sort()).toEqual([...rows.keys()].sort());
      for (const [id, size] of rows) expect(stored.get(id), id).toBe(size);
      for (const u of uploaded) expect(rows.has(u.id)).toBe(true);

      const blobs = env.DATABASE_URL ? new DatabaseBlobStore(store.db, { stagingTtlMs: 0 }) : new DiskBlobStore(join(dataDir, 'attachments'), { stagingTtlMs: 0 });
      const swept = await blobs.sweep((ids) => existingAttachmentIds(store.db, ids));
      expect(swept.published).toBe(0);
      expect(await stagedCount(store)).toBe(0);
      expect([...(await storedAttachments(store)).keys()].sort()).toEqual([...rows.keys()].sort());
      if (store.dialect === 'sqlite') {
        expect((await sql<{ integrity_check: string }>`pragma integrity_check`.execute(store.db)).rows).toEqual([{ integrity_check: 'ok' }]);
      }
    } finally {
      await store.close();
    }
  }, 180_000);

  /** Published bytes by attachment id, with their size: files on disk, or blob rows in the database. */
  async function storedAttachments(store: Store): Promise<Map<string, number>> {
    if (env.DATABASE_URL) {
      const blobs = await store.db
        .selectFrom('attachment_blobs')
        .select(['attachment_id', 'size_bytes'])
        .where('attachment_id', 'is not', null)
        .execute();
      return new Map(blobs.map((b) => [b.attachment_id!, Number(b.size_bytes)]));
    }
    const root = join(dataDir, 'attachments', 'files');
    const files = existsSync(root) ? readdirSync(root, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()) : [];
    return new Map(files.map((f) => [f.name, statSync(join(f.parentPath, f.name)).size]));
  }

  async function stagedCount(store: Store): Promise<number> {
    if (env.DATABASE_URL) {
      return (await store.db.selectFrom('attachment_blobs').select('id').where('attachment_id', 'is', null).execute()).length;
    }
    const staging = join(dataDir, 'attachments', 'staging');
    return existsSync(staging) ? readdirSync(staging).length : 0;
  }
});
