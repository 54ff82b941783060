import type { FastifyServerOptions } from 'fastify';
import { redactUrl } from './redact-url.js';

/** Fastify's logger options for LOG_LEVEL: no Authorization header or session cookie, and no credential in a logged URL. */
export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  if (level === 'silent') return false;
  return {
    level,
    // Only method, address and client are logged (below); should headers ever be, credentials are not.
    redact: ['req.headers.authorization', 'req.headers.cookie', 'req.headers["x-csrf-token"]', 'res.headers["set-cookie"]'],
    serializers: {
      req: (req: { method: string; url: string; ip?: string }) => ({ method: req.method, url: redactUrl(req.url), remoteAddress: req.ip }),
    },
  };
}
