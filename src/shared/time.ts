/** The current time as the service stores and returns it: ISO 8601 UTC with milliseconds. */
export const nowIso = (): string => new Date().toISOString();

/** Normalises a stored timestamp (string or Date, any offset) to ISO 8601 UTC with milliseconds. */
export function toIso(value: string | Date): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

export function toIsoOrNull(value: string | Date | null | undefined): string | null {
  return value === null || value === undefined ? null : toIso(value);
}
