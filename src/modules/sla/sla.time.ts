import { addBusinessMinutes, businessMinutesBetween, type Calendar } from '../business-hours/business-time.js';

/**
 * Business time as the SLA clocks count it: the one library of src/modules/business-hours/
 * when a policy names a calendar, wall-clock minutes without one.
 */
export type SlaCalendar = Calendar;

/** `from` plus `minutes` of business time (wall-clock minutes without a calendar). */
export function addMinutes(calendar: SlaCalendar | null, from: Date, minutes: number): Date {
  return addBusinessMinutes(calendar, from, minutes);
}

/** The business minutes between two instants (wall-clock minutes without a calendar). */
export function minutesBetween(calendar: SlaCalendar | null, from: Date, to: Date): number {
  return to <= from ? 0 : businessMinutesBetween(calendar, from, to);
}
