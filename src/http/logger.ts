import type { FastifyServerOptions } from 'fastify';

/**
 * Redacts what grants access from logged URLs: the signature of signed download addresses, and
 * the tracking token of portal addresses (JSON and pages), which opens a ticket to whoever has it.
 */
export const redactUrl = (url: string): string =>
  url.replace(/([?&]signature=)[^&]*/g, '$1[redacted]').replace(/^(\/+v1\/+portal\/+tickets\/+|\/+portal\/+)[^/?#]+/i, '$1[redacted]');

/** Fastify's logger options for LOG_LEVEL: no Authorization header, and no credential in a logged URL. */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  if (level === 'silent') return false;
  return {
    level,
    redact: ['req.headers.authorization'],
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({ method: req.method, url: redactUrl(req.url), remoteAddress: req.ip }),
    },
  };
}
