import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openStore } from '../db/store.js';
import { openBlobStore } from '../storage/open-blob-store.js';
import { runMain } from '../../test/helpers/cli.js';
import { TEST_STORE, testPostgresDatabase } from '../../test/helpers/test-app.js';

/** `ticketing seed` on this run's store (a fresh SQLite directory, or a fresh PostgreSQL database). */
let env: NodeJS.ProcessEnv;
let cleanup: () => void;

beforeEach(async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'ticketing-seed-'));
  env = { DATA_DIR: dataDir, LOG_LEVEL: 'silent', SIGNING_SECRET: 's'.repeat(40) };
  let drop = () => {};
  if (TEST_STORE === 'postgres') {
    const database = await testPostgresDatabase();
    env.DATABASE_URL = database.url;
    drop = () => database.drop();
  }
  cleanup = () => {
    drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
});
afterEach(() => cleanup());

/** GETs through an app over the same store, with a key made by the CLI. */
async function reader(): Promise<{ get: <T>(url: string) => Promise<T>; close: () => Promise<void> }> {
  const key = (await runMain(['keys', 'create', '--role', 'readonly', '--name', 'check'], env)).stdout.trim();
  const config = loadConfig(env);
  const store = openStore({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  const app = await buildApp({ config, store, blobs: openBlobStore(config, store) });
  return {
    get: async <T>(url: string) => {
      const res = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${key}` } });
      expect(res.statusCode, url).toBe(200);
      return res.json<T>();
    },
    close: async () => {
      await app.close();
      await store.close();
    },
  };
}

describe('ticketing seed', () => {
  it('fills the organization with customers, teams, agents, tickets across statuses, comments and attachments', async () => {
    expect((await runMain(['migrate'], env)).code).toBe(0);
    const org = (await runMain(['orgs', 'create', '--name', 'Demo'], env)).stdout.trim();
    const run = await runMain(['seed', '--org', org, '--tickets', '40'], env);
    expect(run.stderr).toMatch(/^Seeded organization .*: 4 teams, 8 agents, 16 customers, 40 tickets \(\d+ new, \d+ open, \d+ pending, \d+ resolved, \d+ closed\), \d+ comments, \d+ attachments, mailbox support@demo\.example\.com, 2 SLA policies, 4 triggers and automations\n$/);
    expect(run.code).toBe(0);
    expect(run.stdout).toBe(`${org}\n`);

    const api = await reader();
    try {
      const tickets = await api.get<{ id: string; status: string; priority: string; customer_id: string; sla: unknown }[]>('/v1/tickets?limit=100');
      expect(tickets).toHaveLength(40);
      expect(new Set(tickets.map((t) => t.status)).size).toBeGreaterThanOrEqual(4);
      expect(new Set(tickets.map((t) => t.priority)).size).toBeGreaterThanOrEqual(3);
      expect((await api.get<unknown[]>('/v1/customers?limit=100')).length).toBe(16);
      expect((await api.get<unknown[]>('/v1/users?limit=100')).length).toBe(8);
      const teams = await api.get<{ id: string }[]>('/v1/teams');
      expect(teams).toHaveLength(4);
      expect((await api.get<{ members: unknown[] }>(`/v1/teams/${teams[0]!.id}`)).members.length).toBeGreaterThan(0);
      let comments = 0;
      let attachments = 0;
      for (const ticket of tickets) {
        comments += (await api.get<unknown[]>(`/v1/tickets/${ticket.id}/comments`)).length;
        attachments += (await api.get<unknown[]>(`/v1/tickets/${ticket.id}/attachments`)).length;
      }
      expect(comments).toBeGreaterThan(20);
      expect(attachments).toBeGreaterThan(0);
      // Some tickets carry tags, counted by GET /v1/tags.
      const tags = await api.get<{ tag: string; ticket_count: number }[]>('/v1/tags');
      expect(tags.length).toBeGreaterThan(0);
      expect(tags.reduce((sum, t) => sum + t.ticket_count, 0)).toBeGreaterThan(5);
      // Two custom fields, with a plan on every ticket.
      expect((await api.get<{ key: string }[]>('/v1/ticket-fields')).map((f) => f.key)).toEqual(['plan', 'seats']);
      expect((await api.get<unknown[]>('/v1/tickets?custom_fields[plan]=pro&limit=100')).length).toBeGreaterThan(0);
      expect(tickets.every((t) => typeof (t as { custom_fields?: { plan?: unknown } }).custom_fields?.plan === 'string')).toBe(true);
      // Two demo macros.
      expect((await api.get<{ name: string }[]>('/v1/macros')).map((m) => m.name)).toEqual(['Escalate to Technical Support', 'Ask for details and wait']);
      // A realistic workflow: office hours, two SLA policies whose clocks the tickets run, three triggers, one automation.
      expect((await api.get<{ time_zone: string }[]>('/v1/business-hours')).map((h) => h.time_zone)).toEqual(['Europe/Berlin']);
      expect((await api.get<{ name: string }[]>('/v1/sla-policies')).map((p) => p.name)).toEqual(['Urgent: around the clock', 'Standard: office hours']);
      expect(tickets.filter((t) => t.sla !== null).length).toBeGreaterThan(0);
      expect(await api.get<unknown[]>('/v1/triggers')).toHaveLength(3);
      expect((await api.get<{ name: string }[]>('/v1/automations')).map((a) => a.name)).toEqual(['Close tickets pending for 5 days']);
      // A demo mailbox, not the default, so that the seeded customers get no mail.
      expect(await api.get<unknown[]>('/v1/mailboxes')).toEqual([expect.objectContaining({ address: 'support@demo.example.com', is_default: false, inbound: { type: 'none' } })]);
      // Through the services: every change is in the event feed, like any client's.
      const feed = await api.get<{ events: { type: string }[] }>('/v1/events?types=ticket.created&limit=100');
      expect(feed.events).toHaveLength(40);
      // The seeding key was revoked when it was done.
      const keys = (await runMain(['keys', 'list', '--org', org], env)).stdout.split('\n').filter((line) => line.includes('ticketing seed'));
      expect(keys).toHaveLength(1);
      expect(keys[0]).toMatch(/\d{4}-\d\d-\d\dT[\d:]+Z\s*$/);
    } finally {
      await api.close();
    }

    // A second run adds tickets and reuses the teams, agents and customers.
    expect((await runMain(['seed', '--org', org, '--tickets', '3'], env)).code).toBe(0);
    const again = await reader();
    try {
      expect((await again.get<unknown[]>('/v1/tickets?limit=100')).length).toBe(43);
      expect((await again.get<unknown[]>('/v1/teams')).length).toBe(4);
      expect((await again.get<unknown[]>('/v1/users?limit=100')).length).toBe(8);
      expect((await again.get<unknown[]>('/v1/mailboxes')).length).toBe(1);
      expect((await again.get<unknown[]>('/v1/macros')).length).toBe(2);
      expect((await again.get<unknown[]>('/v1/sla-policies')).length).toBe(2);
      expect((await again.get<unknown[]>('/v1/triggers')).length).toBe(3);
      expect((await again.get<unknown[]>('/v1/automations')).length).toBe(1);
    } finally {
      await again.close();
    }
  });

  it('refuses a bad --tickets before touching the store, and an unknown organization', async () => {
    const bad = await runMain(['seed', '--tickets', '0'], env);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toBe("ticketing: --tickets must be a whole number from 1 to 1000, got '0'\n");
    expect((await runMain(['seed', '--tickets', 'lots'], env)).stderr).toContain('--tickets must be a whole number');
    const unknown = await runMain(['seed', '--org', '00000000-0000-4000-8000-000000000000'], env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('organization 00000000-0000-4000-8000-000000000000 not found');
  });
});
