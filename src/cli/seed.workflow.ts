/** The seed's way into the API: a call that answers the body, or null for an allowed refusal. */
export type SeedCall = <T>(method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown, allow?: number[]) => Promise<T | null>;

/**
 * A realistic workflow for the demo organization (issue 24, README "Demo data"): office hours in
 * Berlin with the year's holidays, two SLA policies (urgent tickets and everything else), three
 * triggers and one automation. Made before the tickets, so the seeded tickets run SLA clocks; each
 * is reused by name on a second seed and skipped when its collection is full (422).
 */
export async function seedWorkflow(call: SeedCall, teams: { billing: string; technical: string; accounts: string }): Promise<{ policies: number; rules: number }> {
  const calendars = (await call<{ id: string; name: string }[]>('GET', '/v1/business-hours?limit=100')) ?? [];
  const office =
    calendars.find((c) => c.name === OFFICE.name)?.id ?? (await call<{ id: string }>('POST', '/v1/business-hours', OFFICE, [422]))?.id ?? null;
  const existingPolicies = (await call<{ name: string }[]>('GET', '/v1/sla-policies?limit=100')) ?? [];
  let policies = existingPolicies.length;
  for (const policy of demoPolicies(office)) {
    if (existingPolicies.some((p) => p.name === policy.name)) continue;
    if (await call('POST', '/v1/sla-policies', policy, [422])) policies++;
  }
  let rules = 0;
  const existingTriggers = (await call<{ name: string }[]>('GET', '/v1/triggers?limit=100')) ?? [];
  for (const trigger of demoTriggers(teams)) {
    if (existingTriggers.some((t) => t.name === trigger.name) || (await call('POST', '/v1/triggers', trigger, [422]))) rules++;
  }
  const existingAutomations = (await call<{ name: string }[]>('GET', '/v1/automations?limit=100')) ?? [];
  if (existingAutomations.some((a) => a.name === STALE.name) || (await call('POST', '/v1/automations', STALE, [422]))) rules++;
  return { policies, rules };
}

const OFFICE = {
  name: 'Office hours (Berlin)',
  time_zone: 'Europe/Berlin',
  weekly: ['mon', 'tue', 'wed', 'thu', 'fri'].map((day) => ({ day, start: '09:00', end: '17:00' })),
  holidays: [
    { date: '2026-12-24', name: 'Christmas Eve' },
    { date: '2026-12-25', name: 'Christmas Day' },
    { date: '2026-12-26', name: 'Boxing Day' },
    { date: '2027-01-01', name: "New Year's Day" },
  ],
};

/** Urgent tickets around the clock; the rest in office hours, with warnings before each deadline. */
const demoPolicies = (officeId: string | null) => [
  {
    name: 'Urgent: around the clock',
    position: 1,
    conditions: { all: [{ field: 'priority', operator: 'is', value: 'urgent' }] },
    business_hours_id: null,
    targets: [{ priority: 'urgent', first_response_minutes: 30, next_response_minutes: 60, resolution_minutes: 240, warning_minutes: 10 }],
  },
  {
    name: 'Standard: office hours',
    position: 2,
    conditions: {},
    business_hours_id: officeId,
    targets: [
      { priority: 'high', first_response_minutes: 120, next_response_minutes: 240, resolution_minutes: 960, warning_minutes: 30 },
      { priority: 'medium', first_response_minutes: 240, next_response_minutes: 480, resolution_minutes: 2400, warning_minutes: 60 },
      { priority: 'low', first_response_minutes: 480, next_response_minutes: 960, resolution_minutes: 4800, warning_minutes: 120 },
    ],
  },
];

const demoTriggers = (teams: { billing: string; technical: string; accounts: string }) => [
  {
    name: 'Urgent goes to Technical Support',
    on: ['ticket.created', 'ticket.updated'],
    conditions: { all: [{ field: 'priority', operator: 'is', value: 'urgent' }, { field: 'assigned_team_id', operator: 'is', value: null }] },
    actions: [{ field: 'assigned_team_id', value: teams.technical }, { field: 'add_tags', value: ['escalated'] }],
  },
  {
    name: 'Billing questions go to Billing',
    on: ['ticket.created'],
    conditions: { all: [{ field: 'category', operator: 'is', value: 'billing' }] },
    actions: [{ field: 'assigned_team_id', value: teams.billing }],
  },
  {
    name: 'VIP tickets are high priority',
    on: ['ticket.created'],
    conditions: { all: [{ field: 'tags', operator: 'includes_any', value: ['vip'] }, { field: 'priority', operator: 'in', value: ['low', 'medium'] }] },
    actions: [{ field: 'priority', value: 'high' }, { field: 'assigned_team_id', value: teams.accounts }],
  },
];

/** Pending for five days: closed, with a note saying why. */
const STALE = {
  name: 'Close tickets pending for 5 days',
  conditions: { all: [{ field: 'status', operator: 'is', value: 'pending' }, { field: 'hours_since_status_change', operator: 'at_least', value: 120 }] },
  actions: [
    { field: 'status', value: 'closed' },
    { field: 'comment', value: { body: 'Closed automatically: no answer from the customer for 5 days.', is_internal: true } },
  ],
};
