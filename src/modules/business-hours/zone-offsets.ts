/**
 * UTC offsets of an IANA time zone, from the runtime's own tz database (Intl), cut into spans of
 * constant offset. No dependency: Intl knows every zone and its history; what it lacks is a "next
 * transition" call, so each UTC year of a zone is probed once (weekly, then a binary search to the
 * second where the offset changed) and kept. A year costs about a hundred Intl calls (~1–2 ms) the
 * first time, nothing after (the process's first Intl formatter also loads ICU's zone data, ~80 ms once). Two transitions less than a week apart that cancel each other would
 * go unseen; no zone has had such a pair since the 1940s.
 */

const SECOND = 1000;
const WEEK = 7 * 86_400_000;

/** A span of constant offset: [start, end) in UTC ms; local wall-clock ms = utc + offset. */
export type OffsetSpan = { start: number; end: number; offset: number };

type Year = { start: number; end: number; firstOffset: number; changes: { at: number; offset: number }[] };

const formatters = new Map<string, Intl.DateTimeFormat>();
const years = new Map<string, Map<number, Year>>();
let cachedYears = 0;
const MAX_CACHED_YEARS = 20_000;

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    // `longOffset` prints just the offset ("GMT+02:00", seconds when historic): several times
    // cheaper than asking for the wall-clock parts and subtracting.
    f = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    formatters.set(timeZone, f);
  }
  return f;
}

/**
 * The runtime's canonical name of an IANA zone (`europe/berlin` gives `Europe/Berlin`), or null
 * when it knows no such zone; bare offsets (`+01:00`) are refused: they know no DST.
 */
export function canonicalTimeZone(timeZone: string): string | null {
  if (!/^[A-Za-z]/.test(timeZone)) return null;
  try {
    return formatter(timeZone).resolvedOptions().timeZone;
  } catch {
    return null;
  }
}

/** The offset (ms) at a UTC instant, asked of Intl directly. */
function probe(timeZone: string, utc: number): number {
  const text = formatter(timeZone).format(new Date(utc));
  const m = /GMT(?:([+-])(\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(text);
  if (!m) throw new Error(`unexpected offset "${text}" for ${timeZone}`);
  if (m[1] === undefined) return 0;
  const ms = ((Number(m[2]) * 60 + Number(m[3])) * 60 + Number(m[4] ?? 0)) * SECOND;
  return m[1] === '-' ? -ms : ms;
}

/** Date.UTC reads years 0–99 as 1900–1999; setUTCFullYear does not. */
function yearStart(year: number): number {
  const t = new Date(0);
  t.setUTCFullYear(year, 0, 1);
  return t.getTime();
}

function computeYear(timeZone: string, year: number): Year {
  const start = yearStart(year);
  const end = yearStart(year + 1);
  const firstOffset = probe(timeZone, start);
  const changes: { at: number; offset: number }[] = [];
  let at = start;
  let offset = firstOffset;
  while (at < end) {
    const next = Math.min(at + WEEK, end);
    const nextOffset = next === end ? probe(timeZone, end - SECOND) : probe(timeZone, next);
    if (nextOffset !== offset) {
      // First second in (at, next] with the new offset (one change per probe step assumed).
      let lo = at / SECOND;
      let hi = (next === end ? end - SECOND : next) / SECOND;
      while (hi - lo > 1) {
        const mid = Math.floor((lo + hi) / 2);
        if (probe(timeZone, mid * SECOND) === offset) lo = mid;
        else hi = mid;
      }
      changes.push({ at: hi * SECOND, offset: nextOffset });
      offset = nextOffset;
    }
    at = next;
  }
  return { start, end, firstOffset, changes };
}

function yearOf(timeZone: string, utc: number): Year {
  const year = new Date(utc).getUTCFullYear();
  let zone = years.get(timeZone);
  if (!zone) {
    zone = new Map();
    years.set(timeZone, zone);
  }
  let data = zone.get(year);
  if (!data) {
    if (cachedYears >= MAX_CACHED_YEARS) {
      years.clear();
      cachedYears = 0;
      zone = new Map();
      years.set(timeZone, zone);
    }
    data = computeYear(timeZone, year);
    zone.set(year, data);
    cachedYears += 1;
  }
  return data;
}

/** The span of constant offset holding the instant (spans also end at UTC year boundaries). */
export function offsetSpanAt(timeZone: string, utc: number): OffsetSpan {
  const y = yearOf(timeZone, utc);
  let start = y.start;
  let offset = y.firstOffset;
  let end = y.end;
  for (const c of y.changes) {
    if (c.at <= utc) {
      start = c.at;
      offset = c.offset;
    } else {
      end = c.at;
      break;
    }
  }
  return { start, end, offset };
}
