import { Type, type Static } from 'typebox';
import { DateTime, named, pageQuery, StringEnum, Uuid } from '../../shared/schemas.js';

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
/** The most intervals a calendar's week and the most holidays it may list. */
export const MAX_WEEKLY = 50;
export const MAX_HOLIDAYS = 400;

const Name = Type.String({ minLength: 1, maxLength: 255 });
const TimeZone = Type.String({ minLength: 1, maxLength: 64, description: 'An IANA time zone name, e.g. Europe/Berlin; hours and holidays are local to it, DST included' });
const Interval = Type.Object(
  {
    day: StringEnum(WEEKDAYS),
    start: Type.String({ pattern: '^([01][0-9]|2[0-3]):[0-5][0-9]$', description: 'HH:MM, local wall-clock time' }),
    end: Type.String({ pattern: '^(([01][0-9]|2[0-3]):[0-5][0-9]|24:00)$', description: 'HH:MM after start; 24:00 is the end of the day' }),
  },
  { additionalProperties: false },
);
const Weekly = Type.Array(Interval, {
  minItems: 1,
  maxItems: MAX_WEEKLY,
  description: `Business hours, [start, end) per weekday; several a day allowed, not overlapping; at least one. At most ${MAX_WEEKLY}.`,
});
const Holiday = Type.Object(
  {
    date: Type.String({ pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description: 'A local date (YYYY-MM-DD) in the calendar\'s time zone: no business hours that day' }),
    name: Type.Optional(Type.String({ maxLength: 255 })),
  },
  { additionalProperties: false },
);
const Holidays = Type.Array(Holiday, { maxItems: MAX_HOLIDAYS, description: `Distinct dates, at most ${MAX_HOLIDAYS}` });

export const BusinessHours = named(
  'BusinessHours',
  Type.Object({
    id: Uuid(),
    name: Type.String(),
    time_zone: Type.String(),
    weekly: Type.Array(Type.Object({ day: StringEnum(WEEKDAYS), start: Type.String(), end: Type.String() })),
    holidays: Type.Array(Type.Object({ date: Type.String(), name: Type.Optional(Type.String()) })),
    created_at: DateTime(),
    updated_at: DateTime(),
  }),
);
export type BusinessHours = Static<typeof BusinessHours>;

const EXAMPLE = {
  name: 'Berlin office',
  time_zone: 'Europe/Berlin',
  weekly: ['mon', 'tue', 'wed', 'thu', 'fri'].map((day) => ({ day, start: '09:00', end: '17:00' })),
  holidays: [{ date: '2026-12-25', name: 'Christmas Day' }],
};

export const CreateBusinessHoursBody = Type.Object(
  { name: Name, time_zone: TimeZone, weekly: Weekly, holidays: Type.Optional(Holidays) },
  { additionalProperties: false, examples: [EXAMPLE] },
);
export type CreateBusinessHoursBody = Static<typeof CreateBusinessHoursBody>;

export const UpdateBusinessHoursBody = Type.Object(
  { name: Type.Optional(Name), time_zone: Type.Optional(TimeZone), weekly: Type.Optional(Weekly), holidays: Type.Optional(Holidays) },
  { additionalProperties: false, minProperties: 1, examples: [{ holidays: [{ date: '2026-12-26', name: 'Boxing Day' }] }] },
);
export type UpdateBusinessHoursBody = Static<typeof UpdateBusinessHoursBody>;

export const BusinessHoursParams = Type.Object({ business_hours_id: Uuid() });
export const ListBusinessHoursQuery = Type.Object({ ...pageQuery(100, 500) }, { additionalProperties: false });
