import type { ParseArgsConfig } from 'node:util';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import { createApiKey } from '../auth/keys.service.js';
import type { Config } from '../config.js';
import type { Store } from '../db/store.js';
import { apiKeyCreated, revokeOrganizationKey } from '../modules/api-keys/api-keys.service.js';
import { SYSTEM_ACTOR, withEvents } from '../modules/events/events.log.js';
import type { BlobStore } from '../storage/blob-store.js';
import { seedWorkflow } from './seed.workflow.js';
import { CliError, type CliIo } from './io.js';
import { resolveOrganization } from './keys.js';

export const SEED_OPTIONS = {
  org: { type: 'string' },
  tickets: { type: 'string' },
} as const satisfies ParseArgsConfig['options'];

export const DEFAULT_SEED_TICKETS = 50;
export const MAX_SEED_TICKETS = 1000;

const TEAMS = [
  { name: 'Billing', description: 'Invoices, refunds and payment methods' },
  { name: 'Technical Support', description: 'Errors, outages and integrations' },
  { name: 'Onboarding', description: 'New accounts, imports and first steps' },
  { name: 'Account Management', description: 'Plans, renewals and VIP customers' },
];
const AGENTS = [
  { full_name: 'Grace Hopper', email: 'grace.hopper@support.example.com', role: 'admin', team: 1 },
  { full_name: 'Alan Turing', email: 'alan.turing@support.example.com', role: 'agent', team: 1 },
  { full_name: 'Katherine Johnson', email: 'katherine.johnson@support.example.com', role: 'agent', team: 0 },
  { full_name: 'Edsger Dijkstra', email: 'edsger.dijkstra@support.example.com', role: 'agent', team: 1 },
  { full_name: 'Margaret Hamilton', email: 'margaret.hamilton@support.example.com', role: 'agent', team: 2 },
  { full_name: 'Donald Knuth', email: 'donald.knuth@support.example.com', role: 'agent', team: 0 },
  { full_name: 'Barbara Liskov', email: 'barbara.liskov@support.example.com', role: 'agent', team: 3 },
  { full_name: 'Dennis Ritchie', email: 'dennis.ritchie@support.example.com', role: 'agent', team: 2 },
] as const;
const CUSTOMERS = [
  ['Ada Lovelace', 'Analytical Engines Ltd', 'emea', 'Europe/London'],
  ['Charles Babbage', 'Difference Engines Ltd', 'emea', 'Europe/London'],
  ['Hedy Lamarr', 'Frequency Hopping Inc', 'amer', 'America/Los_Angeles'],
  ['Tim Berners-Lee', 'Hypertext Systems', 'emea', 'Europe/Zurich'],
  ['Radia Perlman', 'Spanning Tree Networks', 'amer', 'America/New_York'],
  ['John McCarthy', 'Lisp Machines Corp', 'amer', 'America/Los_Angeles'],
  ['Frances Allen', 'Optimizing Compilers', 'amer', 'America/New_York'],
  ['Leslie Lamport', 'Distributed Clocks', 'amer', 'America/Chicago'],
  ['Sophie Wilson', 'Acorn Microsystems', 'emea', 'Europe/London'],
  ['Yukihiro Matsumoto', 'Gem Works KK', 'apac', 'Asia/Tokyo'],
  ['Guido van Rossum', 'Python Tools BV', 'emea', 'Europe/Amsterdam'],
  ['Anders Hejlsberg', 'Typed Scripts ApS', 'emea', 'Europe/Copenhagen'],
  ['Lin Hao', 'Harbour Logistics', 'asean', 'Asia/Singapore'],
  ['Marta Souza', 'Café Pagamentos', 'latam', 'America/Sao_Paulo'],
  ['Priya Raman', 'Monsoon Analytics', 'apac', 'Asia/Kolkata'],
  ['Olu Adeyemi', 'Lagos Freight', 'emea', 'Africa/Lagos'],
] as const;
const SUBJECTS: [string, string, string][] = [
  ['Cannot download my invoice', 'The invoice page shows an error since this morning.', 'billing'],
  ['Charged twice this month', 'My card was charged twice for the same subscription period.', 'billing'],
  ['Refund for cancelled order', 'I cancelled within the trial but was still charged.', 'billing'],
  ['API returns 500 on export', 'Exporting the monthly report fails with an internal error.', 'technical'],
  ['Login link expired immediately', 'The magic link says it has expired as soon as I click it.', 'technical'],
  ['Webhook deliveries delayed', 'Events arrive minutes late since yesterday evening.', 'technical'],
  ['Dashboard loads slowly', 'The overview takes more than 20 seconds to load.', 'technical'],
  ['How do I import my contacts?', 'We have a CSV with 3,000 contacts to bring over.', 'onboarding'],
  ['Add a second administrator', 'Please give my colleague admin rights on our account.', 'onboarding'],
  ['Single sign-on setup', 'We want to connect our identity provider.', 'onboarding'],
  ['Upgrade to the annual plan', 'We would like to switch to yearly billing.', 'account'],
  ['Renewal quote needed', 'Our purchasing team needs a quote for next year.', 'account'],
];
const COMMENTS = [
  'Thanks for reaching out: we are looking into it.',
  'Could you send a screenshot of the error?',
  'I have reproduced the problem and passed it to the engineers.',
  'A fix has been deployed; could you try again?',
  'Internal: customer is on the legacy plan, check the old pricing.',
  'Internal: duplicate of an earlier report, linking them.',
];
const STATUSES = ['new', 'open', 'pending', 'resolved', 'closed'] as const;
const PRIORITIES = ['low', 'medium', 'medium', 'high', 'urgent'] as const;
const PLANS = ['free', 'pro', 'enterprise'] as const;
const TAGS = ['vip', 'refund', 'bug', 'mobile', 'follow-up', 'region:emea'] as const;
/** A 1×1 transparent PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

/** A small deterministic generator, so two seeds with the same options make the same data. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SeedDeps {
  store: Store;
  blobs: BlobStore;
  config: Config;
}

export interface SeedSummary {
  teams: number;
  agents: number;
  customers: number;
  tickets: Record<(typeof STATUSES)[number], number>;
  comments: number;
  attachments: number;
  /** The demo mailbox's address; null when the organization had no room for it. */
  mailbox: string | null;
  /** SLA policies, and triggers plus automations, the organization has from the seed. */
  policies: number;
  rules: number;
}

/** `--tickets N`: 1 to 1000, 50 by default. */
export function parseTicketCount(value: string | undefined): number {
  if (value === undefined) return DEFAULT_SEED_TICKETS;
  const n = Number(value);
  if (!/^\d+$/.test(value) || n < 1 || n > MAX_SEED_TICKETS) throw new CliError(`--tickets must be a whole number from 1 to ${MAX_SEED_TICKETS}, got '${value}'`);
  return n;
}

/**
 * `ticketing seed [--org ID] [--tickets N]`: fills an organization with demo data through the
 * HTTP API itself (an in-process app, never listening), so every rule, event and file check
 * applies as to any client. A temporary admin key does the work and is revoked at the end.
 */
export async function seedOrg(deps: SeedDeps, options: { org?: string | undefined; tickets?: string | undefined }, io: CliIo): Promise<number> {
  const count = parseTicketCount(options.tickets);
  const organizationId = await resolveOrganization(deps.store, options.org);
  const { key, record } = await withEvents(deps.store.db, organizationId, SYSTEM_ACTOR, async (trx, events) => {
    const created = await createApiKey(trx, { organizationId, role: 'admin', name: 'ticketing seed (revoked when done)', maxActive: deps.config.caps.apiKeys });
    events.add(apiKeyCreated(created.record));
    return created;
  });
  // The seeding key's budget is its own business: no per-minute limits, no shared Redis.
  const config: Config = {
    ...deps.config,
    logLevel: 'silent',
    docsEnabled: false,
    redisUrl: undefined,
    corsOrigins: null,
    rateLimit: { ...deps.config.rateLimit, adminPerMinute: 1_000_000, uploadsPerMinute: 1_000_000 },
  };
  const app = await buildApp({ config, store: deps.store, blobs: deps.blobs });
  try {
    const summary = await fill(app, key, count);
    const byStatus = STATUSES.map((s) => `${summary.tickets[s]} ${s}`).join(', ');
    io.stdout.write(`${organizationId}\n`);
    io.stderr.write(
      `Seeded organization ${organizationId}: ${summary.teams} teams, ${summary.agents} agents, ${summary.customers} customers, ` +
        `${count} tickets (${byStatus}), ${summary.comments} comments, ${summary.attachments} attachments` +
        `${summary.mailbox ? `, mailbox ${summary.mailbox}` : ''}, ${summary.policies} SLA policies, ${summary.rules} triggers and automations\n`,
    );
    return 0;
  } finally {
    await app.close();
    await revokeOrganizationKey(deps.store.db, organizationId, record.id);
  }
}

async function fill(app: FastifyInstance, key: string, count: number): Promise<SeedSummary> {
  const rand = random(count);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!;
  const call = async <T>(method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown, allow: number[] = []): Promise<T | null> => {
    const res = await app.inject({ method, url, headers: { authorization: `Bearer ${key}` }, ...(body === undefined ? {} : { payload: body as object }) });
    if (res.statusCode < 300) return res.body === '' ? null : res.json<T>();
    if (allow.includes(res.statusCode)) return null;
    throw new CliError(`seeding failed at ${method} ${url}: ${res.statusCode} ${res.json<{ detail: string }>().detail}`);
  };

  // Teams and agents: reused by name and email when the organization has them already.
  const existingTeams = (await call<{ id: string; name: string }[]>('GET', '/v1/teams?limit=100')) ?? [];
  const teams: string[] = [];
  for (const team of TEAMS) {
    const found = existingTeams.find((t) => t.name === team.name);
    teams.push(found?.id ?? (await call<{ id: string }>('POST', '/v1/teams', team))!.id);
  }
  const existingUsers = (await call<{ id: string; email: string }[]>('GET', '/v1/users?limit=100')) ?? [];
  const agents: string[] = [];
  for (const agent of AGENTS) {
    const found = existingUsers.find((u) => u.email === agent.email);
    const id = found?.id ?? (await call<{ id: string }>('POST', '/v1/users', { full_name: agent.full_name, email: agent.email, role: agent.role }))!.id;
    agents.push(id);
    await call('POST', `/v1/teams/${teams[agent.team]!}/members`, { user_id: id });
  }

  // Two custom fields (kept if the organization has them already); values only where the
  // organization's field of that key has the type the seed writes.
  await call('POST', '/v1/ticket-fields', { key: 'plan', label: 'Plan', type: 'dropdown', options: [...PLANS] }, [409]);
  await call('POST', '/v1/ticket-fields', { key: 'seats', label: 'Seats', type: 'number' }, [409]);
  const fields = (await call<{ key: string; type: string; options: string[] }[]>('GET', '/v1/ticket-fields?limit=500')) ?? [];
  const hasPlans = fields.some((f) => f.key === 'plan' && f.type === 'dropdown' && PLANS.every((p) => f.options.includes(p)));
  const hasSeats = fields.some((f) => f.key === 'seats' && f.type === 'number');

  // Two demo macros, reused by name; none when the organization has no room (MAX_MACROS_PER_ORG).
  const existingMacros = (await call<{ name: string }[]>('GET', '/v1/macros?limit=500')) ?? [];
  const macros = demoMacros(teams[1]!).filter((m) => !existingMacros.some((e) => e.name === m.name));
  for (const macro of macros) await call('POST', '/v1/macros', macro, [422]);

  // A calendar, two SLA policies, three triggers and an automation, before the tickets (their SLA clocks run).
  const workflow = await seedWorkflow(call, { billing: teams[0]!, technical: teams[1]!, accounts: teams[3]! });

  // Customers with their details; one already there (an earlier seed) is left as it is.
  for (const [name, company, region, timezone] of CUSTOMERS) {
    await call(
      'POST',
      '/v1/customers',
      {
        name,
        email: emailOf(name),
        company,
        region,
        timezone,
        customer_tier: pick(['tier_1', 'tier_2', 'tier_3', 'tier_4']),
        is_vip: rand() < 0.15,
        has_premium_support: rand() < 0.3,
      },
      [409],
    );
  }

  const tickets: SeedSummary['tickets'] = { new: 0, open: 0, pending: 0, resolved: 0, closed: 0 };
  let comments = 0;
  let attachments = 0;
  for (let i = 0; i < count; i++) {
    const [name] = pick(CUSTOMERS);
    const [subject, description, category] = pick(SUBJECTS);
    const teamIndex = ['billing', 'technical', 'onboarding', 'account'].indexOf(category);
    const assigned = rand() < 0.75;
    const agentIndex = Math.floor(rand() * AGENTS.length);
    const due = rand() < 0.3 ? new Date(Date.now() + Math.floor((rand() * 14 - 3) * 86_400_000)).toISOString() : undefined;
    // Half the tickets get one or two tags (a duplicate pick is dropped by the API).
    const tags = rand() < 0.5 ? [pick(TAGS), ...(rand() < 0.4 ? [pick(TAGS)] : [])] : [];
    const custom = { ...(hasPlans ? { plan: pick(PLANS) } : {}), ...(hasSeats && rand() < 0.5 ? { seats: 1 + Math.floor(rand() * 50) } : {}) };
    const ticket = (await call<{ id: string }>('POST', '/v1/tickets', {
      customer_name: name,
      customer_email: emailOf(name),
      subject,
      description,
      category,
      priority: pick(PRIORITIES),
      ...(assigned ? { assigned_user_id: agents[agentIndex], assigned_team_id: teams[teamIndex] } : {}),
      ...(due ? { due_date: due } : {}),
      ...(tags.length > 0 ? { tags } : {}),
      ...(Object.keys(custom).length > 0 ? { custom_fields: custom } : {}),
    }))!;

    const status = STATUSES[Math.min(STATUSES.length - 1, Math.floor(rand() * 5))]!;
    const thread = status === 'new' ? 0 : 1 + Math.floor(rand() * 3);
    for (let c = 0; c < thread; c++) {
      const text = pick(COMMENTS);
      await call('POST', `/v1/tickets/${ticket.id}/comments`, {
        body: text,
        is_internal: text.startsWith('Internal:'),
        author_user_id: agents[assigned ? agentIndex : c % agents.length],
      });
      comments++;
    }
    if (rand() < 0.2) {
      await upload(app, key, ticket.id, i % 2 === 0 ? textFile(subject) : { name: 'screenshot.png', type: 'image/png', bytes: PNG });
      attachments++;
    }
    if (status !== 'new') await call('PATCH', `/v1/tickets/${ticket.id}`, { status });
    tickets[status]++;
  }
  // A demo mailbox for the email channel, made last so that the seeded comments are not mailed, and
  // not the default, so that no mail goes to the demo customers later. Reused; skipped when the
  // organization has no room for another (MAIL_MAX_MAILBOXES).
  const mailboxes = (await call<{ address: string }[]>('GET', '/v1/mailboxes?limit=100')) ?? [];
  const mailbox =
    mailboxes.some((m) => m.address === DEMO_MAILBOX) ||
    (await call('POST', '/v1/mailboxes', { address: DEMO_MAILBOX, name: 'Demo Support', is_default: false, inbound: { type: 'none' } }, [422])) !== null;
  return { teams: TEAMS.length, agents: AGENTS.length, customers: CUSTOMERS.length, tickets, comments, attachments, mailbox: mailbox ? DEMO_MAILBOX : null, ...workflow };
}

const DEMO_MAILBOX = 'support@demo.example.com';

/** The demo macros: what agents do again and again, in one step each (docs/api-behaviour.md, Macros and actions). */
const demoMacros = (technicalTeamId: string) => [
  {
    name: 'Escalate to Technical Support',
    description: 'Urgent, to the technical team, with an internal note',
    actions: [
      { field: 'priority', value: 'urgent' },
      { field: 'assigned_team_id', value: technicalTeamId },
      { field: 'add_tags', value: ['escalated'] },
      { field: 'comment', value: { body: 'Internal: escalated to Technical Support.', is_internal: true } },
    ],
  },
  {
    name: 'Ask for details and wait',
    description: 'A public reply asking for details; the ticket waits on the customer',
    actions: [
      { field: 'status', value: 'pending' },
      { field: 'assigned_user_id', value: 'me' },
      { field: 'comment', value: { body: 'Thanks for reaching out. Could you send us the steps that lead to the problem and a screenshot?', is_internal: false } },
    ],
  },
];

const emailOf = (name: string): string => `${name.toLowerCase().replace(/[^a-z]+/g, '.')}@customers.example.com`;

function textFile(subject: string): { name: string; type: string; bytes: Buffer } {
  const lines = [`Error log for: ${subject}`, '2026-01-31T09:15:02Z ERROR request failed (status 500)', '2026-01-31T09:15:07Z INFO retry succeeded', ''];
  return { name: 'error-log.txt', type: 'text/plain', bytes: Buffer.from(lines.join('\n')) };
}

/** One file through the upload endpoint (multipart, as any client sends it). */
async function upload(app: FastifyInstance, key: string, ticketId: string, file: { name: string; type: string; bytes: Buffer }): Promise<void> {
  const boundary = `----ticketing-seed-${ticketId}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`),
    file.bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await app.inject({
    method: 'POST',
    url: `/v1/tickets/${ticketId}/attachments`,
    headers: { authorization: `Bearer ${key}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
  if (res.statusCode !== 201) throw new CliError(`seeding failed at an upload: ${res.statusCode} ${res.body}`);
}
