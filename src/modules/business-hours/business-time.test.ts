import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addBusinessMinutes,
  BusinessTimeError,
  businessMinutesBetween,
  isBusinessTime,
  type Calendar,
} from './business-time.js';

/**
 * The library against a brute-force oracle that asks Intl for the wall-clock time of every
 * minute and checks it against the calendar as written (no shared code with the library).
 */
const MIN = 60_000;
const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
type Day = (typeof DAYS)[number];

const oracleFormats = new Map<string, Intl.DateTimeFormat>();
function wallClock(timeZone: string, ms: number): { date: string; day: string; minutes: number } {
  let f = oracleFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', weekday: 'short', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit',
    });
    oracleFormats.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(new Date(ms)).map((x) => [x.type, x.value]));
  return { date: `${p.year}-${p.month}-${p.day}`, day: p.weekday!.toLowerCase(), minutes: Number(p.hour) * 60 + Number(p.minute) };
}
const toMinutes = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3));
function oracleIsBusiness(cal: Calendar, ms: number): boolean {
  const w = wallClock(cal.time_zone, ms);
  if (cal.holidays.some((h) => h.date === w.date)) return false;
  return cal.weekly.some((i) => i.day === w.day && toMinutes(i.start) <= w.minutes && w.minutes < toMinutes(i.end));
}
function bruteCount(cal: Calendar, from: number, to: number): number {
  let n = 0;
  for (let t = from; t < to; t += MIN) if (oracleIsBusiness(cal, t)) n += 1;
  return n;
}

const hhmm = (m: number): string => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
const weekdays = (start: string, end: string, days: readonly Day[] = ['mon', 'tue', 'wed', 'thu', 'fri']): Calendar['weekly'] =>
  days.map((day) => ({ day, start, end }));
const cal = (time_zone: string, weekly: Calendar['weekly'], holidays: Calendar['holidays'] = []): Calendar => ({ time_zone, weekly, holidays });

// DST weekends (local dates) and the zones they belong to.
const DST = [
  { zone: 'Europe/Berlin', at: Date.parse('2026-03-29T01:00:00Z') },
  { zone: 'Europe/Berlin', at: Date.parse('2026-10-25T01:00:00Z') },
  { zone: 'America/New_York', at: Date.parse('2026-03-08T07:00:00Z') },
  { zone: 'America/New_York', at: Date.parse('2026-11-01T06:00:00Z') },
  { zone: 'Australia/Lord_Howe', at: Date.parse('2026-04-04T15:00:00Z') },
  { zone: 'Asia/Kolkata', at: Date.parse('2026-06-01T00:00:00Z') },
];

const intervalArb = fc
  .record({ day: fc.constantFrom(...DAYS), a: fc.integer({ min: 0, max: 1440 }), b: fc.integer({ min: 0, max: 1440 }) })
  .filter((r) => r.a !== r.b)
  .map((r) => ({ day: r.day, start: hhmm(Math.min(r.a, r.b)), end: hhmm(Math.max(r.a, r.b)) }));
// Hours around the night of the change are likely, so the 02:00–03:00 gap gets covered often.
const nightArb = fc
  .record({ day: fc.constantFrom<Day>('sat', 'sun'), a: fc.integer({ min: 0, max: 240 }), len: fc.integer({ min: 1, max: 300 }) })
  .map((r) => ({ day: r.day, start: hhmm(r.a), end: hhmm(Math.min(1440, r.a + r.len)) }));
const scenarioArb = fc
  .record({
    dst: fc.constantFrom(...DST),
    weekly: fc.array(fc.oneof(intervalArb, nightArb), { minLength: 1, maxLength: 6 }),
    holidayOffsets: fc.array(fc.integer({ min: -2, max: 2 }), { maxLength: 2 }),
    fromOffset: fc.integer({ min: -2 * 1440, max: 1440 }),
  })
  .map(({ dst, weekly, holidayOffsets, fromOffset }) => {
    const holidays = [...new Set(holidayOffsets)].map((d) => ({ date: new Date(dst.at + d * 86_400_000).toISOString().slice(0, 10) }));
    return { calendar: cal(dst.zone, weekly, holidays), from: dst.at + fromOffset * MIN };
  });

describe('business time against a minute-by-minute count', () => {
  it('businessMinutesBetween and isBusinessTime agree with the brute force, DST nights included', () => {
    fc.assert(
      fc.property(scenarioArb, fc.integer({ min: 0, max: 2 * 1440 }), ({ calendar, from }, span) => {
        expect(businessMinutesBetween(calendar, new Date(from), new Date(from + span * MIN))).toBe(bruteCount(calendar, from, from + span * MIN));
        expect(isBusinessTime(calendar, new Date(from))).toBe(oracleIsBusiness(calendar, from));
      }),
      { numRuns: 60 },
    );
  });

  it('adding then counting gives the minutes back, and the answer is the earliest such instant', () => {
    fc.assert(
      fc.property(scenarioArb, fc.integer({ min: 1, max: 3000 }), ({ calendar, from }, minutes) => {
        const due = addBusinessMinutes(calendar, new Date(from), minutes);
        expect(businessMinutesBetween(calendar, new Date(from), due)).toBe(minutes);
        // The last minute before the answer is business time, so no earlier instant would do.
        expect(oracleIsBusiness(calendar, due.getTime() - MIN)).toBe(true);
        // Answers often land on an interval's end: the boundary belongs to the next interval only.
        expect(isBusinessTime(calendar, due)).toBe(oracleIsBusiness(calendar, due.getTime()));
      }),
      { numRuns: 150 },
    );
  });

  it('add(a) then add(b) is add(a + b)', () => {
    fc.assert(
      fc.property(scenarioArb, fc.integer({ min: 0, max: 2000 }), fc.integer({ min: 0, max: 2000 }), ({ calendar, from }, a, b) => {
        const once = addBusinessMinutes(calendar, new Date(from), a + b);
        const twice = addBusinessMinutes(calendar, addBusinessMinutes(calendar, new Date(from), a), b);
        expect(twice.toISOString()).toBe(once.toISOString());
      }),
      { numRuns: 200 },
    );
  });
});

describe('business time in odd zones, 1980–2100', () => {
  // Half-hour and 45-minute offsets, changes at midnight (Santiago), Ramadan suspensions
  // (Casablanca), a 30-minute DST (Lord Howe), and a whole day skipped (Apia, 2011-12-30).
  const ZONES = ['Asia/Kathmandu', 'Pacific/Chatham', 'America/Santiago', 'Africa/Casablanca', 'Australia/Lord_Howe', 'Pacific/Apia', 'Asia/Tehran', 'America/Havana'];
  const from1980 = Date.parse('1980-01-01T00:00:00Z');
  const span = Date.parse('2100-01-01T00:00:00Z') - from1980;
  const anyDay = fc.record({ a: fc.integer({ min: 0, max: 1439 }), len: fc.integer({ min: 1, max: 600 }) });

  it('counts as the minute-by-minute oracle does, around random instants and around each zone\'s changes', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...ZONES),
        fc.oneof(fc.integer({ min: 0, max: Math.floor(span / MIN) }).map((m) => from1980 + m * MIN), fc.constantFrom(Date.parse('2011-12-29T08:00:00Z'), Date.parse('2022-09-10T02:00:00Z'), Date.parse('2026-04-05T00:00:00Z'))),
        fc.array(anyDay, { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 0, max: 36 * 60 }),
        (zone, from, hours, minutes) => {
          const weekly = DAYS.flatMap((day) => hours.map((h) => ({ day, start: hhmm(h.a), end: hhmm(Math.min(1440, h.a + h.len)) })));
          const c = cal(zone, weekly);
          expect(businessMinutesBetween(c, new Date(from), new Date(from + minutes * MIN))).toBe(bruteCount(c, from, from + minutes * MIN));
          expect(isBusinessTime(c, new Date(from))).toBe(oracleIsBusiness(c, from));
        },
      ),
      { numRuns: 40 },
    );
  });
});

describe('business time, by example', () => {
  const nineToFive = cal('Europe/Berlin', weekdays('09:00', '17:00'));

  it('a week of Monday to Friday 9–17 is 2,400 minutes', () => {
    for (const zone of ['Europe/Berlin', 'America/New_York', 'UTC']) {
      const c = cal(zone, weekdays('09:00', '17:00'));
      expect(businessMinutesBetween(c, new Date('2026-06-01T00:00:00Z'), new Date('2026-06-08T00:00:00Z'))).toBe(2400);
    }
    // The DST weeks too: the change happens at night, outside the hours.
    expect(businessMinutesBetween(nineToFive, new Date('2026-03-23T00:00:00Z'), new Date('2026-03-30T00:00:00Z'))).toBe(2400);
    expect(businessMinutesBetween(nineToFive, new Date('2026-03-30T00:00:00Z'), new Date('2026-04-06T00:00:00Z'))).toBe(2400);
  });

  it('Friday 15:00 plus 3 hours is Monday 10:00, in local time on both sides of a spring-forward weekend', () => {
    // Berlin: Friday 2026-03-27 15:00 CET (14:00Z); Monday 10:00 CEST is 08:00Z.
    expect(addBusinessMinutes(nineToFive, new Date('2026-03-27T14:00:00Z'), 180).toISOString()).toBe('2026-03-30T08:00:00.000Z');
    const ny = cal('America/New_York', weekdays('09:00', '17:00'));
    // New York: Friday 2026-03-06 15:00 EST (20:00Z); Monday 10:00 EDT is 14:00Z.
    expect(addBusinessMinutes(ny, new Date('2026-03-06T20:00:00Z'), 180).toISOString()).toBe('2026-03-09T14:00:00.000Z');
  });

  it('hours over the skipped hour are shorter, over the repeated hour longer', () => {
    const night = (zone: string): Calendar => cal(zone, [{ day: 'sun', start: '01:00', end: '04:00' }]);
    const sunday = (zone: string, date: string) =>
      businessMinutesBetween(night(zone), new Date(Date.parse(`${date}T00:00:00Z`) - 86_400_000), new Date(Date.parse(`${date}T00:00:00Z`) + 2 * 86_400_000));
    expect(sunday('Europe/Berlin', '2026-03-29')).toBe(120);
    expect(sunday('Europe/Berlin', '2026-10-25')).toBe(240);
    expect(sunday('America/New_York', '2026-03-08')).toBe(120);
    expect(sunday('America/New_York', '2026-11-01')).toBe(240);
    // Hours that start inside the gap begin when the clocks jump: 02:30 does not exist, 03:00 CEST does.
    const inGap = cal('Europe/Berlin', [{ day: 'sun', start: '02:30', end: '05:00' }]);
    expect(addBusinessMinutes(inGap, new Date('2026-03-28T12:00:00Z'), 1).toISOString()).toBe('2026-03-29T01:01:00.000Z');
    expect(isBusinessTime(inGap, new Date('2026-03-29T01:00:00Z'))).toBe(true);
    expect(isBusinessTime(inGap, new Date('2026-03-29T00:59:00Z'))).toBe(false);
  });

  it('a holiday on a Monday is skipped, in the calendar zone', () => {
    const withHoliday = cal('America/New_York', weekdays('09:00', '17:00'), [{ date: '2026-12-28', name: 'Observed' }]);
    expect(businessMinutesBetween(withHoliday, new Date('2026-12-28T00:00:00Z'), new Date('2027-01-04T00:00:00Z'))).toBe(1920);
    // Friday 16:00 EST + 2h: Monday is a holiday, so Tuesday 10:00 EST (15:00Z).
    expect(addBusinessMinutes(withHoliday, new Date('2026-12-25T21:00:00Z'), 120).toISOString()).toBe('2026-12-29T15:00:00.000Z');
    expect(isBusinessTime(withHoliday, new Date('2026-12-28T15:00:00Z'))).toBe(false);
  });

  it('several intervals a day, and an end of 24:00 running into the next day', () => {
    const split = cal('UTC', [
      { day: 'mon', start: '08:00', end: '12:00' },
      { day: 'mon', start: '13:00', end: '24:00' },
      { day: 'tue', start: '00:00', end: '02:00' },
    ]);
    expect(businessMinutesBetween(split, new Date('2026-06-01T00:00:00Z'), new Date('2026-06-03T00:00:00Z'))).toBe(240 + 660 + 120);
    expect(addBusinessMinutes(split, new Date('2026-06-01T11:00:00Z'), 120).toISOString()).toBe('2026-06-01T14:00:00.000Z');
    expect(addBusinessMinutes(split, new Date('2026-06-01T23:00:00Z'), 90).toISOString()).toBe('2026-06-02T00:30:00.000Z');
  });

  it('null is 24/7: plain minutes', () => {
    const from = new Date('2026-03-29T00:30:00Z');
    expect(addBusinessMinutes(null, from, 90).toISOString()).toBe('2026-03-29T02:00:00.000Z');
    expect(businessMinutesBetween(null, from, new Date('2026-03-29T02:00:00Z'))).toBe(90);
    expect(businessMinutesBetween(null, new Date('2026-03-29T02:00:00Z'), from)).toBe(0);
    expect(isBusinessTime(null, from)).toBe(true);
  });

  it('0 when to <= from; adding 0 minutes gives from back', () => {
    const at = new Date('2026-06-06T12:00:00Z'); // a Saturday
    expect(businessMinutesBetween(nineToFive, at, at)).toBe(0);
    expect(businessMinutesBetween(nineToFive, at, new Date(at.getTime() - 3_600_000))).toBe(0);
    expect(addBusinessMinutes(nineToFive, at, 0).toISOString()).toBe(at.toISOString());
  });

  it('absurd input is bounded: no hours throws, a far answer throws, big spans stay fast', () => {
    const empty = cal('Europe/Berlin', []);
    expect(() => addBusinessMinutes(empty, new Date(), 1)).toThrow(expect.objectContaining({ code: 'no_business_hours' }));
    expect(businessMinutesBetween(empty, new Date('2026-01-01'), new Date('2026-02-01'))).toBe(0);
    const sparse = cal('America/New_York', [{ day: 'sun', start: '01:00', end: '01:01' }]);
    const started = performance.now();
    expect(() => addBusinessMinutes(sparse, new Date('2026-01-01'), 1e9)).toThrow(BusinessTimeError);
    expect(() => addBusinessMinutes(nineToFive, new Date('2026-01-01'), -1)).toThrow(expect.objectContaining({ code: 'out_of_range' }));
    expect(() => addBusinessMinutes(nineToFive, new Date(NaN), 1)).toThrow(expect.objectContaining({ code: 'out_of_range' }));
    // A year of business time, forwards, in well under a second even with a cold zone cache.
    const yearOn = addBusinessMinutes(nineToFive, new Date('2026-01-01'), 2400 * 52);
    expect(yearOn.getUTCFullYear()).toBe(2026);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('is fast on the hot path (the SLA sweep and every ticket create)', () => {
    const started = performance.now();
    for (let i = 0; i < 20_000; i += 1) addBusinessMinutes(nineToFive, new Date(Date.parse('2026-01-01') + i * 600_000), 3 * 480);
    const perCall = (performance.now() - started) / 20_000;
    expect(perCall).toBeLessThan(0.1); // ms
  });
});
