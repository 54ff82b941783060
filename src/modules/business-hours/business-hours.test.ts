import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { ROLE_SCOPES } from '../../auth/scopes.js';

/** Business-hours calendars: CRUD, paging, tenancy, scopes, every refusal (docs/api-behaviour.md, Business hours). */

type Hours = { id: string; name: string; time_zone: string; weekly: Array<{ day: string; start: string; end: string }>; holidays: Array<{ date: string; name?: string }>; created_at: string; updated_at: string };
type FieldError = { field: string; message: string };

let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ MAX_BUSINESS_HOURS_PER_ORG: '3' });
});
afterAll(async () => {
  await t.close();
});

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';
const send = (key: string, method: Method, url: string, body?: unknown) => t.request({ method, url, key, body });
async function ok<T>(key: string, method: Method, url: string, body?: unknown): Promise<T> {
  const res = await send(key, method, url, body);
  expect(res.statusCode, res.body).toBeLessThan(300);
  return (res.statusCode === 204 ? undefined : res.json()) as T;
}

const nineToFive = ['mon', 'tue', 'wed', 'thu', 'fri'].map((day) => ({ day, start: '09:00', end: '17:00' }));
const body = (extra: Record<string, unknown> = {}) => ({ name: 'Berlin office', time_zone: 'Europe/Berlin', weekly: nineToFive, holidays: [{ date: '2026-12-25', name: 'Christmas Day' }], ...extra });

describe('business hours: CRUD', () => {
  it('are created, read, listed, changed and deleted; another organization gets 404', async () => {
    const org = await t.newOrg();
    const created = await ok<Hours>(org.adminKey, 'POST', '/v1/business-hours', body());
    expect(created).toMatchObject({ name: 'Berlin office', time_zone: 'Europe/Berlin', weekly: nineToFive, holidays: [{ date: '2026-12-25', name: 'Christmas Day' }] });
    expect(await ok(org.adminKey, 'GET', `/v1/business-hours/${created.id}`)).toEqual(created);
    expect(await ok(org.adminKey, 'GET', '/v1/business-hours')).toEqual([created]);

    const changed = await ok<Hours>(org.adminKey, 'PATCH', `/v1/business-hours/${created.id}`, {
      time_zone: 'America/New_York',
      weekly: [{ day: 'sat', start: '00:00', end: '24:00' }, { day: 'mon', start: '08:00', end: '12:00' }, { day: 'mon', start: '12:00', end: '18:30' }],
      holidays: [],
    });
    expect(changed).toMatchObject({ name: 'Berlin office', time_zone: 'America/New_York', holidays: [] });
    expect(changed.weekly).toHaveLength(3);
    expect(await ok(org.adminKey, 'GET', `/v1/business-hours/${created.id}`)).toEqual(changed);
    expect(Date.parse(changed.updated_at)).toBeGreaterThanOrEqual(Date.parse(created.updated_at));

    const other = await t.newOrg();
    for (const [method, url] of [['GET', `/v1/business-hours/${created.id}`], ['PATCH', `/v1/business-hours/${created.id}`], ['DELETE', `/v1/business-hours/${created.id}`]] as const) {
      const res = await send(other.adminKey, method, url, method === 'PATCH' ? { name: 'x' } : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
    }
    expect(await ok(other.adminKey, 'GET', '/v1/business-hours')).toEqual([]);

    await ok(org.adminKey, 'DELETE', `/v1/business-hours/${created.id}`);
    expect((await send(org.adminKey, 'GET', `/v1/business-hours/${created.id}`)).statusCode).toBe(404);
    expect((await send(org.adminKey, 'DELETE', `/v1/business-hours/${created.id}`)).statusCode).toBe(404);
  });

  it('time zones are stored by their canonical IANA name; holidays need no name', async () => {
    const org = await t.newOrg();
    const created = await ok<Hours>(org.adminKey, 'POST', '/v1/business-hours', body({ time_zone: 'europe/berlin', holidays: [{ date: '2026-01-01' }] }));
    expect(created).toMatchObject({ time_zone: 'Europe/Berlin', holidays: [{ date: '2026-01-01' }] });
    expect((await ok<Hours>(org.adminKey, 'POST', '/v1/business-hours', body({ time_zone: 'UTC', holidays: undefined }))).holidays).toEqual([]);
  });

  it('lists page by offset and by the cursor of the Link header, oldest first', async () => {
    const org = await t.newOrg();
    const made: string[] = [];
    for (let i = 0; i < 3; i++) made.push((await ok<Hours>(org.adminKey, 'POST', '/v1/business-hours', body({ name: `H${i}` }))).id);
    expect((await ok<Hours[]>(org.adminKey, 'GET', '/v1/business-hours?limit=2&offset=1')).map((h) => h.id)).toEqual(made.slice(1));
    const paged: string[] = [];
    let url: string | undefined = '/v1/business-hours?limit=2';
    while (url) {
      const res = await send(org.adminKey, 'GET', url);
      expect(res.statusCode, res.body).toBe(200);
      paged.push(...res.json<Hours[]>().map((h) => h.id));
      url = /<([^>]+)>; rel="next"/.exec(String(res.headers.link ?? ''))?.[1];
    }
    expect(paged).toEqual(made);
  });

  it('an organization has at most MAX_BUSINESS_HOURS_PER_ORG calendars: the next is 422 naming the cap', async () => {
    const org = await t.newOrg();
    for (let i = 0; i < 3; i++) await ok(org.adminKey, 'POST', '/v1/business-hours', body());
    const res = await send(org.adminKey, 'POST', '/v1/business-hours', body());
    expect(res.statusCode).toBe(422);
    expect(res.json<{ detail: string }>().detail).toBe('This organization already has 3 business-hours calendars, the most allowed (MAX_BUSINESS_HOURS_PER_ORG=3); delete one first');
  });
});

describe('business hours: scopes', () => {
  it('reading needs sla:read, changing sla:write, deleting sla:delete (403 otherwise); agents may read', async () => {
    const org = await t.newOrg();
    const created = await ok<Hours>(org.adminKey, 'POST', '/v1/business-hours', body());
    const reader = await org.key({ role: 'readonly', name: 'r' });
    expect((await send(reader, 'GET', `/v1/business-hours/${created.id}`)).statusCode).toBe(200);
    expect((await send(reader, 'POST', '/v1/business-hours', body())).statusCode).toBe(403);
    const ticketsOnly = await org.key({ role: 'admin', name: 't', scopes: ['tickets:read', 'tickets:write'] });
    expect((await send(ticketsOnly, 'GET', '/v1/business-hours')).statusCode).toBe(403);
    expect((await send(ticketsOnly, 'GET', `/v1/business-hours/${created.id}`)).statusCode).toBe(403);
    const writer = await org.key({ role: 'admin', name: 'w', scopes: ['sla:read', 'sla:write'] });
    expect((await send(writer, 'PATCH', `/v1/business-hours/${created.id}`, { name: 'Renamed' })).statusCode).toBe(200);
    expect((await send(writer, 'DELETE', `/v1/business-hours/${created.id}`)).statusCode).toBe(403);
    const readOnlyAdmin = await org.key({ role: 'admin', name: 'ro', scopes: ['sla:read'] });
    expect((await send(readOnlyAdmin, 'PATCH', `/v1/business-hours/${created.id}`, { name: 'x' })).statusCode).toBe(403);
    expect((await send(readOnlyAdmin, 'POST', '/v1/business-hours', body())).statusCode).toBe(403);
    expect([...ROLE_SCOPES.agent].filter((s) => s.startsWith('sla:'))).toEqual(['sla:read']);
    expect([...ROLE_SCOPES.admin].filter((s) => s.startsWith('sla:'))).toEqual(['sla:read', 'sla:write', 'sla:delete']);
  });
});

describe('business hours: refusals name the field', () => {
  // n short intervals spread over the week, none overlapping: slot k of a day is k:00–k:30.
  const week = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
  const days = (n: number) => Array.from({ length: n }, (_, i) => ({ day: week[i % 7], start: `${String(Math.floor(i / 7)).padStart(2, '0')}:00`, end: `${String(Math.floor(i / 7)).padStart(2, '0')}:30` }));
  const dates = (n: number) => Array.from({ length: n }, (_, i) => ({ date: new Date(Date.UTC(2026, 0, 1) + i * 86_400_000).toISOString().slice(0, 10) }));
  const cases: Array<[string, string, Record<string, unknown>, RegExp?]> = [
    ['unknown time zone', 'body.time_zone', { time_zone: 'Mars/Olympus_Mons' }, /not an IANA time zone/],
    ['a bare offset', 'body.time_zone', { time_zone: '+01:00' }, /not an IANA time zone/],
    ['malformed start', 'body.weekly.0.start', { weekly: [{ day: 'mon', start: '9:00', end: '17:00' }] }],
    ['malformed end', 'body.weekly.0.end', { weekly: [{ day: 'mon', start: '09:00', end: '17:60' }] }],
    ['24:00 as a start', 'body.weekly.0.start', { weekly: [{ day: 'mon', start: '24:00', end: '24:00' }] }],
    ['25:00 as an end', 'body.weekly.0.end', { weekly: [{ day: 'mon', start: '09:00', end: '25:00' }] }],
    ['unknown day', 'body.weekly.0.day', { weekly: [{ day: 'monday', start: '09:00', end: '17:00' }] }],
    ['reversed interval', 'body.weekly[2].end', { weekly: [...nineToFive.slice(0, 2), { day: 'wed', start: '17:00', end: '09:00' }] }, /must be after start \(17:00\)/],
    ['empty interval', 'body.weekly[0].end', { weekly: [{ day: 'wed', start: '09:00', end: '09:00' }] }, /must be after start/],
    [
      'overlapping intervals on one day',
      'body.weekly[5]',
      { weekly: [...nineToFive, { day: 'tue', start: '16:00', end: '18:00' }] },
      /tue 16:00–18:00 overlaps body\.weekly\[1\] \(09:00–17:00\)/,
    ],
    ['an interval inside another', 'body.weekly[6]', { weekly: [{ day: 'sun', start: '10:00', end: '11:00' }, ...nineToFive, { day: 'sun', start: '08:00', end: '12:00' }] }, /overlaps body\.weekly\[0\]/],
    ['no hours at all', 'body.weekly', { weekly: [] }],
    ['invalid holiday date', 'body.holidays[1].date', { holidays: [{ date: '2026-01-01' }, { date: '2026-02-30' }] }, /not a calendar date/],
    ['malformed holiday date', 'body.holidays.0.date', { holidays: [{ date: '26-1-1' }] }],
    ['duplicate holiday', 'body.holidays[2].date', { holidays: [{ date: '2026-12-25' }, { date: '2026-12-26' }, { date: '2026-12-25', name: 'again' }] }, /already body\.holidays\[0\]/],
    ['too many intervals', 'body.weekly', { weekly: days(51) }],
    ['too many holidays', 'body.holidays', { holidays: dates(401) }],
    ['an unknown field', 'body.color', { color: 'blue' }],
  ];

  it.each(cases)('%s: 422 naming %s', async (_, field, extra, message) => {
    const org = await t.newOrg();
    const res = await send(org.adminKey, 'POST', '/v1/business-hours', body(extra));
    expect(res.statusCode, res.body).toBe(422);
    const error = res.json<{ errors: FieldError[] }>().errors[0]!;
    expect(error.field).toBe(field);
    if (message) expect(error.message).toMatch(message);
    // PATCH refuses the same, and changes nothing.
    const created = await ok<Hours>(org.adminKey, 'POST', '/v1/business-hours', body());
    const patched = await send(org.adminKey, 'PATCH', `/v1/business-hours/${created.id}`, extra);
    expect(patched.statusCode, patched.body).toBe(422);
    expect(patched.json<{ errors: FieldError[] }>().errors[0]!.field).toBe(field);
    expect(await ok(org.adminKey, 'GET', `/v1/business-hours/${created.id}`)).toEqual(created);
  });

  it('the limits themselves are allowed: 50 intervals, 400 holidays, touching intervals, 24:00', async () => {
    const org = await t.newOrg();
    const created = await ok<Hours>(org.adminKey, 'POST', '/v1/business-hours', body({ weekly: days(50), holidays: dates(400) }));
    expect([created.weekly.length, created.holidays.length]).toEqual([50, 400]);
    await ok(org.adminKey, 'POST', '/v1/business-hours', body({ weekly: [{ day: 'mon', start: '00:00', end: '12:00' }, { day: 'mon', start: '12:00', end: '24:00' }] }));
  });

  it('an empty PATCH is 422', async () => {
    const org = await t.newOrg();
    const created = await ok<Hours>(org.adminKey, 'POST', '/v1/business-hours', body());
    expect((await send(org.adminKey, 'PATCH', `/v1/business-hours/${created.id}`, {})).statusCode).toBe(422);
  });
});
