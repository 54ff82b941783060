import { addBusinessMinutes, BusinessTimeError, businessMinutesBetween, type Calendar } from '../business-hours/business-time.js';

/**
 * Business time as the SLA clocks count it: the one library of src/modules/business-hours/
 * when a policy names a calendar, wall-clock minutes without one.
 */
export type SlaCalendar = Calendar;

/** A deadline the calendar cannot reach within the library's 100 years: that far, so its clock never fires. */
const UNREACHABLE_MS = 100 * 365.25 * 86_400_000;

/**
 * `from` plus `minutes` of business time (wall-clock minutes without a calendar). A calendar too
 * thin for the target (a minute a week against a month's target) gives a deadline 100 years away
 * rather than an error: a ticket's write never fails because of its policy's arithmetic.
 */
export function addMinutes(calendar: SlaCalendar | null, from: Date, minutes: number): Date {
  try {
    return addBusinessMinutes(calendar, from, minutes);
  } catch (error) {
    if (error instanceof BusinessTimeError && (error.code === 'out_of_range' || error.code === 'no_business_hours')) return new Date(from.getTime() + UNREACHABLE_MS);
    throw error;
  }
}

/** The business minutes between two instants (wall-clock minutes without a calendar). */
export function minutesBetween(calendar: SlaCalendar | null, from: Date, to: Date): number {
  return to <= from ? 0 : businessMinutesBetween(calendar, from, to);
}
