/** The current time as the service stores and returns it: ISO 8601 UTC with milliseconds. */
export const nowIso = (): string => new Date().toISOString();

/** Normalises a stored timestamp (string or Date, any offset) to ISO 8601 UTC with milliseconds. */
export function toIso(value: string | Date): string {
  // Stored timestamps are already in this form: returned as they are, without a Date round trip.
  if (typeof value === 'string' && ISO_UTC_MS.test(value)) return value;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

/**
 * Text that toISOString() gives back unchanged (days past the 28th take the slow path: a 30th of
 * February would roll over).
 */
const ISO_UTC_MS = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|1\d|2[0-8])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;

export function toIsoOrNull(value: string | Date | null | undefined): string | null {
  return value === null || value === undefined ? null : toIso(value);
}
