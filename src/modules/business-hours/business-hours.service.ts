import { randomUUID } from 'node:crypto';
import type { Updateable } from 'kysely';
import type { AuthContext } from '../../auth/auth-context.js';
import type { Config } from '../../config.js';
import type { Store } from '../../db/store.js';
import type { BusinessHoursTable } from '../../db/types.js';
import { errors } from '../../errors.js';
import { assertBelowCap } from '../../limits/collection-caps.js';
import type { Executor } from '../../shared/executor.js';
import type { Page } from '../../shared/pagination.js';
import { nowIso, toIso } from '../../shared/time.js';
import { localDayNumber, type Calendar } from './business-time.js';
import * as repo from './business-hours.repository.js';
import type { BusinessHours, CreateBusinessHoursBody, UpdateBusinessHoursBody } from './business-hours.schemas.js';
import { forgetSlaPolicies } from '../sla/sla.policy-cache.js';
import { canonicalTimeZone } from './zone-offsets.js';

export interface BusinessHoursDeps {
  store: Store;
  config: Config;
}

type Weekly = Calendar['weekly'];
type Holidays = Calendar['holidays'];

export function presentBusinessHours(row: repo.BusinessHoursRow): BusinessHours {
  return {
    id: row.id,
    name: row.name,
    time_zone: row.time_zone,
    weekly: JSON.parse(row.weekly) as Weekly,
    holidays: JSON.parse(row.holidays) as Holidays,
    created_at: toIso(row.created_at),
    updated_at: toIso(row.updated_at),
  };
}

/** A stored calendar as the business-time library reads it (for SLA policies). */
export function calendarOf(row: repo.BusinessHoursRow): Calendar {
  return { time_zone: row.time_zone, weekly: JSON.parse(row.weekly) as Weekly, holidays: JSON.parse(row.holidays) as Holidays };
}

/** The zone's canonical name, or 422: only IANA names the runtime knows (no bare offsets). */
function checkedTimeZone(timeZone: string): string {
  const canonical = canonicalTimeZone(timeZone);
  if (canonical === null) throw errors.invalidField('body.time_zone', `"${timeZone}" is not an IANA time zone (e.g. Europe/Berlin, America/New_York, UTC)`);
  return canonical;
}

const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));

/** Each interval runs forwards and overlaps no other of its day (the schema checked the HH:MM form, and that there is one). */
function checkedWeekly(weekly: Weekly): Weekly {
  for (const [i, w] of weekly.entries()) {
    if (minutesOf(w.end) <= minutesOf(w.start)) throw errors.invalidField(`body.weekly[${i}].end`, `must be after start (${w.start}); ${w.end} is not`);
  }
  const order = weekly.map((w, i) => ({ ...w, i })).sort((a, b) => a.day.localeCompare(b.day) || minutesOf(a.start) - minutesOf(b.start) || a.i - b.i);
  for (let k = 1; k < order.length; k++) {
    const [prev, cur] = [order[k - 1]!, order[k]!];
    if (prev.day === cur.day && minutesOf(cur.start) < minutesOf(prev.end)) {
      const [first, later] = prev.i < cur.i ? [prev, cur] : [cur, prev];
      throw errors.invalidField(`body.weekly[${later.i}]`, `${later.day} ${later.start}–${later.end} overlaps body.weekly[${first.i}] (${first.start}–${first.end}); intervals of a day may touch but not overlap`);
    }
  }
  return weekly.map((w) => ({ day: w.day, start: w.start, end: w.end }));
}

/** Real calendar dates, each once. */
function checkedHolidays(holidays: Holidays): Holidays {
  const seen = new Map<string, number>();
  for (const [i, h] of holidays.entries()) {
    if (localDayNumber(h.date) === null) throw errors.invalidField(`body.holidays[${i}].date`, `${h.date} is not a calendar date (YYYY-MM-DD)`);
    const earlier = seen.get(h.date);
    if (earlier !== undefined) throw errors.invalidField(`body.holidays[${i}].date`, `${h.date} is already body.holidays[${earlier}]`);
    seen.set(h.date, i);
  }
  return holidays.map((h) => (h.name === undefined ? { date: h.date } : { date: h.date, name: h.name }));
}

export async function createBusinessHours(deps: BusinessHoursDeps, auth: AuthContext, body: CreateBusinessHoursBody): Promise<BusinessHours> {
  const timeZone = checkedTimeZone(body.time_zone);
  const weekly = checkedWeekly(body.weekly);
  const holidays = checkedHolidays(body.holidays ?? []);
  return deps.store.db.transaction().execute(async (trx) => {
    await assertBelowCap(
      trx,
      auth.organizationId,
      { collection: 'business_hours', max: deps.config.caps.businessHours, setting: 'MAX_BUSINESS_HOURS_PER_ORG', noun: 'business-hours calendars', remedy: 'delete one first' },
      repo.countBusinessHours,
    );
    const now = nowIso();
    const row = {
      id: randomUUID(),
      organization_id: auth.organizationId,
      name: body.name,
      time_zone: timeZone,
      weekly: JSON.stringify(weekly),
      holidays: JSON.stringify(holidays),
      created_at: now,
      updated_at: now,
    };
    await repo.insertBusinessHours(trx, row);
    return presentBusinessHours(row);
  });
}

async function getRow(db: Executor, auth: AuthContext, id: string): Promise<repo.BusinessHoursRow> {
  const row = await repo.findBusinessHours(db, auth.organizationId, id);
  if (!row) throw errors.notFound('Business hours');
  return row;
}

export async function getBusinessHours(deps: BusinessHoursDeps, auth: AuthContext, id: string): Promise<BusinessHours> {
  return presentBusinessHours(await getRow(deps.store.db, auth, id));
}

export async function listBusinessHours(deps: BusinessHoursDeps, auth: AuthContext, page: Page): Promise<BusinessHours[]> {
  return (await repo.listBusinessHours(deps.store.db, auth.organizationId, page)).map(presentBusinessHours);
}

export async function updateBusinessHours(deps: BusinessHoursDeps, auth: AuthContext, id: string, body: UpdateBusinessHoursBody): Promise<BusinessHours> {
  const changes: Updateable<BusinessHoursTable> = { updated_at: nowIso() };
  if (body.name !== undefined) changes.name = body.name;
  if (body.time_zone !== undefined) changes.time_zone = checkedTimeZone(body.time_zone);
  if (body.weekly !== undefined) changes.weekly = JSON.stringify(checkedWeekly(body.weekly));
  if (body.holidays !== undefined) changes.holidays = JSON.stringify(checkedHolidays(body.holidays));
  return deps.store.db.transaction().execute(async (trx) => {
    const current = await getRow(trx, auth, id);
    await repo.updateBusinessHours(trx, auth.organizationId, id, changes);
    return presentBusinessHours({ ...current, ...changes });
  }).finally(() => forgetSlaPolicies(auth.organizationId));
}

/** 409 while an SLA policy counts time in it (repo.businessHoursInUse). */
export async function deleteBusinessHours(deps: BusinessHoursDeps, auth: AuthContext, id: string): Promise<void> {
  await deps.store.db.transaction().execute(async (trx) => {
    await getRow(trx, auth, id);
    if (await repo.businessHoursInUse(trx, auth.organizationId, id)) {
      throw errors.conflict('These business hours are used by an SLA policy: point the policy at other hours (or none) first');
    }
    await repo.deleteBusinessHours(trx, auth.organizationId, id);
  });
}
