import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import ipaddr from 'ipaddr.js';

/** What a request id taken from a proxy may be: up to 128 characters, none that could break a log line or a header. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._~:/+=@-]{1,128}$/;

/**
 * Fastify's request-id and request-log options (docs/operations.md#request-ids). The id: behind a
 * trusted proxy (TRUST_PROXY: the request comes from one of its addresses, or from anyone with
 * `true`), the proxy's `X-Request-Id` when it is safe; otherwise a new UUID. It is the `reqId` of
 * every log line of the request, `X-Request-Id` on its answer and `request_id` in 5xx bodies. A
 * client reaching the service directly cannot choose it.
 */
export function requestLogOptions(config: { trustProxy: boolean | string; logLevel: string }): Pick<
  FastifyServerOptions,
  'requestIdHeader' | 'genReqId' | 'logController'
> {
  const trusted = trustedPeer(config.trustProxy);
  return {
    logController: new LogController({ requestIdLogLabel: 'reqId', disableRequestLogging: quietHealthChecks(config.logLevel) }),
    // Read here rather than by Fastify, which would take any value unchecked.
    requestIdHeader: false,
    genReqId: (request: IncomingMessage) => {
      if (trusted(request.socket.remoteAddress)) {
        const given = request.headers['x-request-id'];
        if (typeof given === 'string' && SAFE_REQUEST_ID.test(given)) return given;
      }
      return randomUUID();
    },
  };
}

/** proxy-addr's names of ranges, which Fastify's trustProxy accepts too, as ipaddr.js names them. */
const NAMED_RANGES: Record<string, string[]> = { loopback: ['loopback'], linklocal: ['linkLocal'], uniquelocal: ['private', 'uniqueLocal'] };

/**
 * Whether a peer address is a proxy TRUST_PROXY names: addresses, CIDRs and the names loopback,
 * linklocal and uniquelocal, as for X-Forwarded-For. An entry of another form trusts no one.
 */
export function trustedPeer(trustProxy: boolean | string): (address: string | undefined) => boolean {
  if (typeof trustProxy === 'boolean') return () => trustProxy;
  const ranges: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]> = [];
  const named: string[] = [];
  for (const entry of trustProxy.split(',').map((e) => e.trim()).filter((e) => e !== '')) {
    if (NAMED_RANGES[entry]) named.push(...NAMED_RANGES[entry]);
    else if (entry.includes('/') && ipaddr.isValidCIDR(entry)) ranges.push(ipaddr.parseCIDR(entry));
    else if (ipaddr.isValid(entry)) {
      const address = ipaddr.process(entry);
      ranges.push([address, address.kind() === 'ipv4' ? 32 : 128]);
    }
  }
  return (peer) => {
    if (!peer || !ipaddr.isValid(peer)) return false;
    // IPv4-mapped IPv6 (::ffff:10.0.0.1) as IPv4, as the proxy list writes it.
    const address = ipaddr.process(peer);
    if (named.includes(address.range())) return true;
    return ranges.some(([base, bits]) => address.kind() === base.kind() && address.match(base, bits));
  };
}

/** Every answer carries its request's id (errors raised before routing get it from the error handler). */
export function registerRequestIdHeader(app: FastifyInstance): void {
  // Synchronous: it runs on every request.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
}

/** Health checks, which orchestrators call every few seconds: their request log lines would drown the rest. */
const HEALTH_CHECK = /^\/(healthz|readyz)\/?(\?|$)/;

/**
 * Fastify's `disableRequestLogging`: no "incoming request" / "request completed" lines for
 * /healthz and /readyz unless LOG_LEVEL is debug or trace. Their failures are still logged.
 */
function quietHealthChecks(logLevel: string): boolean | ((request: { url: string }) => boolean) {
  if (logLevel === 'debug' || logLevel === 'trace') return false;
  return (request) => HEALTH_CHECK.test(request.url);
}
