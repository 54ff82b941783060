/**
 * Redacts what grants access from a request URL before it is logged: the tracking token of portal
 * addresses (JSON and pages), which opens a ticket to whoever has it, and the query parameters that
 * carry a credential (the signature of signed download addresses, and any token).
 *
 * A client may spell the same address many ways (`/v1/%70ortal/tickets/...`, `//portal//...`,
 * `?sig%6Eature=...`, `;` parameters), and the router and query parser decode them before they
 * mean anything, so the URL is judged decoded, as they read it, and generously (case, repeated
 * encoding, `;` and bracket suffixes): a spelling the app would not route is redacted too. What
 * holds no secret is logged as it came.
 */

/** Query parameter names (decoded, lower case) whose value is a credential. */
const SECRET_QUERY_NAMES = new Set(['signature', 'sig', 'token', 'tracking_token', 'access_token', 'api_key', 'apikey', 'key', 'secret', 'password']);

const REDACTED = '[redacted]';

/** Percent-decodes until nothing changes (a few rounds at most); a malformed escape stays as it is. */
function decodeFully(text: string): string {
  let current = text;
  for (let round = 0; round < 4 && current.includes('%'); round++) {
    let next: string;
    try {
      next = decodeURIComponent(current);
    } catch {
      next = current.replace(/%[0-9a-f]{2}/gi, (escape) => {
        try {
          return decodeURIComponent(escape);
        } catch {
          return escape;
        }
      });
    }
    if (next === current) break;
    current = next;
  }
  return current;
}

/** A decoded path segment as routing compares it: lower case, without `;` parameters. */
const segmentKey = (segment: string): string => segment.split(';', 1)[0]!.trim().toLowerCase();

/**
 * Indexes (into `segments`) of the segments that hold a tracking token: `/v1/portal/tickets/<token>/...`
 * and `/portal/<token>/...`. Empty segments (repeated slashes) are skipped, as a lenient router would.
 */
function secretSegments(segments: string[]): number[] {
  const present = segments.map((segment, index) => ({ key: segmentKey(segment), index })).filter((s) => s.key !== '');
  const keys = present.map((s) => s.key);
  if (keys[0] === 'v1' && keys[1] === 'portal' && keys[2] === 'tickets' && present[3]) return [present[3].index];
  if (keys[0] === 'portal' && present[1]) return [present[1].index];
  return [];
}

/** Re-encodes a decoded segment for the log line, so it reads as a URL path. */
const encodeSegment = (segment: string): string => segment.replace(/[^A-Za-z0-9\-._~!$&'()*+,;=:@]/g, (c) => encodeURIComponent(c));

function redactPath(path: string): string {
  const segments = decodeFully(path).split('/');
  const secrets = secretSegments(segments);
  // Nothing to hide: the path as it came, every byte of it.
  if (secrets.length === 0) return path;
  return segments.map((segment, index) => (secrets.includes(index) ? REDACTED : encodeSegment(segment))).join('/');
}

/** True when a query parameter's name, however encoded or decorated, names a credential. */
function isSecretName(rawName: string): boolean {
  const name = decodeFully(rawName.replace(/\+/g, ' ')).toLowerCase();
  return SECRET_QUERY_NAMES.has(name.replace(/[^a-z0-9_]/g, '')) || SECRET_QUERY_NAMES.has(name.split(/[[;]/, 1)[0]!.trim());
}

/**
 * Each `&`-separated pair is judged by its name; within a pair, `;`-separated parts are judged too
 * (a parser that splits on `;` reads them as pairs). From a secret name on, the rest of the pair
 * is redacted, so no splitting rule can leave part of the value in the log.
 */
function redactQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const parts = pair.split(';');
      const secret = parts.findIndex((part) => isSecretName(part.split('=', 1)[0]!));
      if (secret === -1) return pair;
      const name = parts[secret]!.split('=', 1)[0]!;
      return [...parts.slice(0, secret), `${name}=${REDACTED}`].join(';');
    })
    .join('&');
}

/** The URL (path and query, as a request line carries it) with every credential redacted. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  if (q === -1) return redactPath(url);
  return `${redactPath(url.slice(0, q))}?${redactQuery(url.slice(q + 1))}`;
}
