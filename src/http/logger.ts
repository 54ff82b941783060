import type { FastifyServerOptions } from 'fastify';
import { redactUrl } from './redact-url.js';

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
