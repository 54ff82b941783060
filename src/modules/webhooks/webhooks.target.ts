import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';

/**
 * Where webhooks may be sent (SSRF protection). A webhook URL is chosen by an API client, and the
 * service sends requests to it from inside the network it runs in, so without care a client could
 * make it call the cloud metadata service (169.254.169.254), a database on localhost or an
 * internal admin page. Rules, unless WEBHOOKS_ALLOW_PRIVATE=true (development and tests):
 *
 * - only `https://` URLs, without user names or passwords in them;
 * - every address the host resolves to must be a public unicast address (the tables below):
 *   loopback, private (RFC 1918), carrier-grade NAT, link-local (the metadata service),
 *   unique-local, unspecified, multicast, broadcast, documentation, benchmarking and reserved
 *   ranges are refused. Of IPv6, only global unicast (2000::/3) may be reached, so all of ::/8
 *   (::1, ::, the IPv4-compatible ::a.b.c.d) is refused; the forms that embed an IPv4 address are
 *   judged by it (IPv4-mapped ::ffff:0:0/96 and NAT64 64:ff9b::/96 reach the IPv4 address they
 *   embed) or refused outright (6to4, Teredo, local-use NAT64, IPv4-translated);
 * - the check is made when delivering, on the addresses the resolver answers then, and the
 *   connection goes to an address that passed (a custom `lookup`), so a name that later resolves
 *   elsewhere (DNS rebinding) gains nothing;
 * - redirects are never followed (a 3xx is a failed delivery).
 *
 * Creating or changing an endpoint refuses what is plainly wrong at once (a 422), but only the
 * delivery-time check decides: DNS can change after the endpoint was saved.
 */

/** Thrown when a delivery is refused before any connection is made. */
export class ForbiddenTargetError extends Error {}

type Range = [ipaddr.IPv4 | ipaddr.IPv6, number];
const cidrs = (list: string[]) => list.map((cidr) => ipaddr.parseCIDR(cidr));

/** IPv4 ranges no webhook may reach (IANA special-purpose registry, and multicast and class E). */
const FORBIDDEN_V4: Range[] = cidrs([
  '0.0.0.0/8', // "this network", 0.0.0.0 reaches this machine on most systems
  '10.0.0.0/8', // private
  '100.64.0.0/10', // carrier-grade NAT (shared address space)
  '127.0.0.0/8', // loopback
  '169.254.0.0/16', // link-local: the cloud metadata service (169.254.169.254)
  '172.16.0.0/12', // private
  '192.0.0.0/24', // IETF protocol assignments
  '192.0.2.0/24', // documentation
  '192.88.99.0/24', // 6to4 relay anycast
  '192.168.0.0/16', // private
  '198.18.0.0/15', // benchmarking
  '198.51.100.0/24', // documentation
  '203.0.113.0/24', // documentation
  '224.0.0.0/4', // multicast
  '240.0.0.0/4', // reserved, and 255.255.255.255 (broadcast)
]);

/** IPv6 ranges inside global unicast (2000::/3) that are refused all the same. */
const FORBIDDEN_V6: Range[] = cidrs([
  '2001::/23', // IETF protocol assignments: Teredo (2001::/32, embeds an IPv4 address), benchmarking, ORCHID
  '2001:db8::/32', // documentation
  '2002::/16', // 6to4: embeds an IPv4 address
  '3fff::/20', // documentation
]);

/** IPv6 prefixes that embed an IPv4 address in their last 32 bits, and reach it. */
const EMBEDDING_V6: Range[] = cidrs([
  '::ffff:0:0/96', // IPv4-mapped
  '64:ff9b::/96', // NAT64, well-known prefix: a gateway connects to the embedded address
]);

const GLOBAL_UNICAST_V6 = ipaddr.parseCIDR('2000::/3');

function within(address: ipaddr.IPv4 | ipaddr.IPv6, ranges: Range[]): boolean {
  return ranges.some(([base, bits]) =>
    address.kind() === 'ipv4'
      ? base.kind() === 'ipv4' && (address as ipaddr.IPv4).match(base, bits)
      : base.kind() === 'ipv6' && (address as ipaddr.IPv6).match(base, bits),
  );
}

/**
 * True when the address is anything but a public unicast address (see above). Everything not
 * plainly public is refused: ::/8 (::1, ::, ::a.b.c.d), unique-local fc00::/7, link-local
 * fe80::/10, site-local, multicast ff00::/8, local-use NAT64 64:ff9b:1::/48 and all other IPv6
 * outside 2000::/3 are outside the one range allowed.
 */
export function isForbiddenAddress(address: string): boolean {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    // A zone (fe80::1%eth0) only ever qualifies a link-local address, which is refused anyway.
    const bare = address.replace(/%.*$/, '');
    // ipaddr.js reads ::a.b.c.d as ::ffff:a.b.c.d; the WHATWG URL parser writes any IPv6 address
    // in hexadecimal (::808:808), which ipaddr.js reads right.
    parsed = ipaddr.parse(isIP(bare) === 6 ? new URL(`http://[${bare}]/`).hostname.slice(1, -1) : bare);
  } catch {
    return true;
  }
  if (parsed.kind() === 'ipv4') return within(parsed, FORBIDDEN_V4);
  const v6 = parsed as ipaddr.IPv6;
  if (within(v6, EMBEDDING_V6)) {
    const bytes = v6.toByteArray().slice(12);
    return within(new ipaddr.IPv4(bytes), FORBIDDEN_V4);
  }
  return !within(v6, [GLOBAL_UNICAST_V6]) || within(v6, FORBIDDEN_V6);
}

/** A URL host as an IP address, or null for a name (`[::1]` → `::1`). */
function literalAddress(hostname: string): string | null {
  const bare = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
  return isIP(bare) ? bare : null;
}

/** Names that always mean this machine, whatever a resolver says. */
const isLocalName = (hostname: string): boolean => /(^|\.)localhost\.?$/i.test(hostname);

/** What a refusal adds, so whoever tests a receiver on their own machine knows the way out. */
const ALLOW_PRIVATE_HINT = 'set WEBHOOKS_ALLOW_PRIVATE=true to allow http:// and private or loopback addresses (for local testing only)';

/**
 * Why a URL cannot be a webhook target, judged without resolving it, or null when it may be: the
 * scheme, credentials, and an address written in the URL. The URL must already parse.
 */
function targetProblem(url: URL, allowPrivate: boolean): string | null {
  if (url.protocol !== 'https:' && !(allowPrivate && url.protocol === 'http:')) {
    return allowPrivate ? 'must be an http:// or https:// URL' : `must be an https:// URL on a public address; ${ALLOW_PRIVATE_HINT}`;
  }
  if (url.username !== '' || url.password !== '') return 'must not contain a user name or password';
  if (url.hostname === '') return 'must name a host';
  if (allowPrivate) return null;
  const literal = literalAddress(url.hostname);
  if (literal !== null && isForbiddenAddress(literal)) {
    return `must not point at a loopback, private, link-local or otherwise non-public address (${literal}); ${ALLOW_PRIVATE_HINT}`;
  }
  return null;
}

/**
 * What creating or changing an endpoint refuses (422): `targetProblem`, and names that always mean
 * this machine. Other names are judged when delivering, by what they resolve to then.
 */
export function urlProblem(url: URL, allowPrivate: boolean): string | null {
  const problem = targetProblem(url, allowPrivate);
  if (problem !== null || allowPrivate) return problem;
  if (literalAddress(url.hostname) === null && isLocalName(url.hostname)) return `must not point at this machine (localhost); ${ALLOW_PRIVATE_HINT}`;
  return null;
}

type Resolver = (hostname: string, options: LookupOptions & { all: true }, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => void;

const systemResolver: Resolver = (hostname, options, callback) => dnsLookup(hostname, options, callback);

/**
 * A `lookup` for sockets that resolves the host, refuses the connection when any of its addresses
 * is forbidden, and otherwise connects to those same addresses: what was checked is what is used.
 */
export function vettedLookup(allowPrivate: boolean, resolve: Resolver = systemResolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, { family: options.family, hints: options.hints, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      if (addresses.length === 0) return callback(Object.assign(new Error(`${hostname} did not resolve`), { code: 'ENOTFOUND' }), '', 0);
      const forbidden = allowPrivate ? undefined : addresses.find((a) => isForbiddenAddress(a.address));
      if (forbidden) {
        return callback(new ForbiddenTargetError(`${hostname} resolves to ${forbidden.address}, which is not a public address`), '', 0);
      }
      if (options.all) return (callback as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}

export interface PostOptions {
  timeoutMs: number;
  allowPrivate: boolean;
  /** Aborts the request (the worker is stopping). */
  signal?: AbortSignal | undefined;
  agents?: { http: http.Agent; https: https.Agent } | undefined;
  lookup?: LookupFunction | undefined;
}

/** Keep-alive agents whose sockets only ever connect to vetted addresses. */
export function vettedAgents(allowPrivate: boolean): { http: http.Agent; https: https.Agent } {
  const lookup = vettedLookup(allowPrivate);
  return {
    http: new http.Agent({ keepAlive: true, lookup, maxSockets: 4 }),
    https: new https.Agent({ keepAlive: true, lookup, maxSockets: 4 }),
  };
}

/** Bytes of a receiver's answer that are read before the connection is cut. */
const MAX_RESPONSE_BYTES = 64 * 1024;
/** Bytes of a receiver's answer that are kept, for the delivery log. */
export const KEPT_RESPONSE_BYTES = 4 * 1024;

/** A receiver's answer: its status and the start of its body. */
export interface TargetAnswer {
  status: number;
  /** The first 4 KiB of the body as UTF-8 text (a character cut at the end is dropped). */
  body: string;
}

/** Why an answer is a failed attempt (anything but a 2xx), or null when it is a success. */
export function answerProblem(status: number): string | null {
  if (status >= 200 && status < 300) return null;
  return status >= 300 && status < 400 ? `HTTP ${status}: redirects are not followed` : `HTTP ${status}`;
}

/** A failed attempt's error as the delivery log shows it: the code and message, 500 characters at most. */
export function describeFailure(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown };
  const message = typeof e.message === 'string' ? e.message : String(error);
  const text = typeof e.code === 'string' && !message.includes(e.code) ? `${e.code}: ${message}` : message;
  return text.slice(0, 500);
}

/**
 * POSTs a body to a webhook target and resolves to the answer's status and the start of its body.
 * Rejects when the target is refused (ForbiddenTargetError), cannot be reached, or does not answer
 * within the timeout. Never follows a redirect.
 */
export function postToTarget(target: string, body: string, headers: Record<string, string>, options: PostOptions): Promise<TargetAnswer> {
  const url = new URL(target);
  const problem = targetProblem(url, options.allowPrivate);
  if (problem !== null) return Promise.reject(new ForbiddenTargetError(`The URL ${problem}`));
  const literal = literalAddress(url.hostname);
  // A literal address is connected to without a lookup, so it is checked here (targetProblem did).
  const lookup = literal === null ? (options.lookup ?? vettedLookup(options.allowPrivate)) : undefined;
  const client = url.protocol === 'https:' ? https : http;
  const agent = options.agents ? (url.protocol === 'https:' ? options.agents.https : options.agents.http) : undefined;
  return new Promise<TargetAnswer>((resolve, reject) => {
    const timer = setTimeout(() => request.destroy(new Error(`no answer within ${options.timeoutMs} ms`)), options.timeoutMs);
    const onAbort = () => request.destroy(new Error('interrupted: the server is shutting down'));
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        ...(agent ? { agent } : {}),
        ...(lookup ? { lookup } : {}),
      },
      (response: IncomingMessage) => {
        let received = 0;
        const kept: Buffer[] = [];
        response.on('data', (chunk: Buffer) => {
          if (received < KEPT_RESPONSE_BYTES) kept.push(chunk.subarray(0, KEPT_RESPONSE_BYTES - received));
          received += chunk.length;
          // A receiver that answers with megabytes is cut off.
          if (received > MAX_RESPONSE_BYTES) response.destroy();
        });
        response.on('error', () => undefined);
        response.on('close', () => {
          clearTimeout(timer);
          options.signal?.removeEventListener('abort', onAbort);
          // PostgreSQL text cannot hold NUL; the log is for reading, not a byte-exact copy.
          const text = new TextDecoder().decode(Buffer.concat(kept), { stream: true }).replaceAll('\u0000', '');
          resolve({ status: response.statusCode ?? 0, body: text });
        });
      },
    );
    request.on('error', (error) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      reject(error);
    });
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });
    request.end(body);
  });
}
