import { offsetSpanAt } from './zone-offsets.js';

/**
 * The one business-time library: pure functions (no I/O) over a calendar of weekly hours and
 * holidays in an IANA time zone. `null` stands for 24/7: plain minutes.
 *
 * Business time is the set of instants whose wall-clock time in the calendar's zone falls in one
 * of its day's intervals [start, end), on a local date that is not a holiday. So across DST an
 * interval is as long as the clocks say: 01:00–04:00 on a spring-forward night is 2 real hours,
 * on a fall-back night 4; hours inside a skipped hour do not exist; a repeated hour counts twice.
 *
 * Speed: the walk jumps from interval to interval within spans of constant UTC offset (see
 * zone-offsets.ts), never minute by minute. Bounds, for absurd input: `addBusinessMinutes` throws
 * `BusinessTimeError` `no_business_hours` for a calendar without any hours, and `out_of_range`
 * when the answer lies more than 100 years past `from` (or outside years 1–9999);
 * `businessMinutesBetween` throws `out_of_range` for spans over 100 years. The API refuses such
 * calendars before they reach here.
 *
 * Calendars are read as immutable: a compiled form is cached per calendar object.
 */
export type Calendar = {
  time_zone: string;
  weekly: { day: 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun'; start: string; end: string }[];
  holidays: { date: string; name?: string }[];
};

export type BusinessTimeErrorCode = 'no_business_hours' | 'out_of_range' | 'invalid_calendar';

export class BusinessTimeError extends Error {
  constructor(
    readonly code: BusinessTimeErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'BusinessTimeError';
  }
}

const MINUTE = 60_000;
const DAY = 86_400_000;
/** How far past `from` an answer may lie (and how long a counted span may be). */
const HORIZON = Math.round(100 * 365.2425 * DAY);
const MIN_TIME = new Date('0001-01-01T00:00:00Z').getTime();
const MAX_TIME = new Date('9999-12-31T00:00:00Z').getTime();
const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

type Compiled = {
  timeZone: string;
  /** Per weekday (0 = Monday): sorted, merged [startMs, endMs) from local midnight. */
  days: [number, number][][];
  holidays: Set<number>;
  hasHours: boolean;
};

const compiledCache = new WeakMap<Calendar, Compiled>();

function parseTime(value: string, allow24: boolean): number {
  const m = /^(\d{2}):(\d{2})$/.exec(value);
  const hours = m ? Number(m[1]) : NaN;
  const minutes = m ? Number(m[2]) : NaN;
  const ok = m !== null && minutes < 60 && (hours < 24 || (allow24 && hours === 24 && minutes === 0));
  if (!ok) throw new BusinessTimeError('invalid_calendar', `invalid time "${value}" (HH:MM, end may be 24:00)`);
  return (hours * 60 + minutes) * MINUTE;
}

/** A local date "YYYY-MM-DD" as a day number (days since 1970-01-01), or null when invalid. */
export function localDayNumber(date: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const t = new Date(0);
  t.setUTCFullYear(y, mo - 1, d);
  if (t.getUTCFullYear() !== y || t.getUTCMonth() !== mo - 1 || t.getUTCDate() !== d) return null;
  return Math.floor(t.getTime() / DAY);
}

function compile(calendar: Calendar): Compiled {
  const cached = compiledCache.get(calendar);
  if (cached) return cached;
  const days: [number, number][][] = DAYS.map(() => []);
  for (const w of calendar.weekly) {
    const index = DAYS.indexOf(w.day);
    if (index < 0) throw new BusinessTimeError('invalid_calendar', `invalid day "${String(w.day)}"`);
    const start = parseTime(w.start, false);
    const end = parseTime(w.end, true);
    if (end > start) days[index]!.push([start, end]);
  }
  for (const [i, list] of days.entries()) {
    list.sort((a, b) => a[0] - b[0]);
    const merged: [number, number][] = [];
    for (const iv of list) {
      const last = merged[merged.length - 1];
      if (last && iv[0] <= last[1]) last[1] = Math.max(last[1], iv[1]);
      else merged.push([iv[0], iv[1]]);
    }
    days[i] = merged;
  }
  const holidays = new Set<number>();
  for (const h of calendar.holidays) {
    const day = localDayNumber(h.date);
    if (day === null) throw new BusinessTimeError('invalid_calendar', `invalid holiday date "${h.date}"`);
    holidays.add(day);
  }
  const compiled = { timeZone: calendar.time_zone, days, holidays, hasHours: days.some((d) => d.length > 0) };
  compiledCache.set(calendar, compiled);
  return compiled;
}

function weekday(day: number): number {
  // Day 0 (1970-01-01) was a Thursday; 0 = Monday.
  return (((day + 3) % 7) + 7) % 7;
}

function checkTime(t: number): void {
  if (!Number.isFinite(t) || t < MIN_TIME || t > MAX_TIME) {
    throw new BusinessTimeError('out_of_range', 'dates must be valid and within years 1–9999');
  }
}

/**
 * Visits business intervals [start, end) (UTC ms) in order from `from` up to `limit`, clipped to
 * both; stops early when `visit` returns true (and then returns true).
 */
function walk(cal: Compiled, from: number, limit: number, visit: (start: number, end: number) => boolean): boolean {
  let cursor = from;
  while (cursor < limit) {
    const span = offsetSpanAt(cal.timeZone, cursor);
    const o = span.offset;
    const spanEnd = Math.min(span.end, limit);
    const localStart = cursor + o;
    const localEnd = spanEnd + o;
    for (let day = Math.floor(localStart / DAY); day * DAY < localEnd; day += 1) {
      if (cal.holidays.has(day)) continue;
      const midnight = day * DAY;
      for (const [s, e] of cal.days[weekday(day)]!) {
        const ls = midnight + s;
        const le = midnight + e;
        if (le <= localStart) continue;
        if (ls >= localEnd) break;
        const start = Math.max(ls, localStart) - o;
        const end = Math.min(le, localEnd) - o;
        if (end > start && visit(start, end)) return true;
      }
    }
    cursor = spanEnd;
  }
  return false;
}

/** `from` plus `minutes` of business time (fractions allowed, rounded to the millisecond). */
export function addBusinessMinutes(calendar: Calendar | null, from: Date, minutes: number): Date {
  const start = from.getTime();
  checkTime(start);
  if (!Number.isFinite(minutes) || minutes < 0) {
    throw new BusinessTimeError('out_of_range', 'minutes must be a finite number, 0 or more');
  }
  let remaining = Math.round(minutes * MINUTE);
  if (calendar === null || remaining === 0) {
    const t = start + remaining;
    checkTime(t);
    return new Date(t);
  }
  const cal = compile(calendar);
  if (!cal.hasHours) throw new BusinessTimeError('no_business_hours', 'the calendar has no business hours');
  let result = NaN;
  const found = walk(cal, start, Math.min(start + HORIZON, MAX_TIME), (s, e) => {
    if (e - s >= remaining) {
      result = s + remaining;
      return true;
    }
    remaining -= e - s;
    return false;
  });
  if (!found) throw new BusinessTimeError('out_of_range', 'the answer lies more than 100 years ahead');
  return new Date(result);
}

/** Business minutes in [from, to): 0 when `to` <= `from`; fractions for partial minutes. */
export function businessMinutesBetween(calendar: Calendar | null, from: Date, to: Date): number {
  const a = from.getTime();
  const b = to.getTime();
  checkTime(a);
  checkTime(b);
  if (b <= a) return 0;
  if (calendar === null) return (b - a) / MINUTE;
  if (b - a > HORIZON) throw new BusinessTimeError('out_of_range', 'spans over 100 years are not counted');
  const cal = compile(calendar);
  if (!cal.hasHours) return 0;
  let total = 0;
  walk(cal, a, b, (s, e) => {
    total += e - s;
    return false;
  });
  return total / MINUTE;
}

/** Whether the instant is in business time (always, for `null`). */
export function isBusinessTime(calendar: Calendar | null, at: Date): boolean {
  const t = at.getTime();
  checkTime(t);
  if (calendar === null) return true;
  const cal = compile(calendar);
  const local = t + offsetSpanAt(cal.timeZone, t).offset;
  const day = Math.floor(local / DAY);
  if (cal.holidays.has(day)) return false;
  const since = local - day * DAY;
  return cal.days[weekday(day)]!.some(([s, e]) => since >= s && since < e);
}
