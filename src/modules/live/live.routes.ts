import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppDeps } from '../../app-deps.js';
import { authOf } from '../../auth/authenticate.js';
import { ErrorBody, responses } from '../../shared/schemas.js';
import { LiveHub } from './live.hub.js';
import { PresenceRegistry } from './live.presence.js';
import { EventStream, PresenceBody, PresenceParams, StreamHeaders } from './live.schemas.js';
import { openEventStream } from './live.stream.js';
import { setPresence, StreamCounts, streamStart, type LiveDeps } from './live.service.js';

/**
 * The live stream and presence (docs/api-behaviour.md#live-stream-and-presence). The hub follows the
 * change feed only while streams are open, so it belongs to the app that serves them: it is made
 * here and stopped, with every open stream, when the app closes.
 */
export async function liveRoutes(fastify: FastifyInstance, appDeps: AppDeps): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { config } = appDeps;
  const presence = new PresenceRegistry(config.live.presenceTtlMs);
  if (config.redisUrl) presence.connectRedis(config.redisUrl, config.redisPrefix, fastify.log);
  const deps: LiveDeps = {
    store: appDeps.store,
    config,
    hub: new LiveHub(appDeps.store, config.live.pollIntervalMs, fastify.log),
    presence,
    streams: new StreamCounts(config.live),
  };
  presence.onChange((update) => {
    for (const subscriber of deps.hub.subscribersOf(update.organizationId)) subscriber.presence?.(update);
  });
  const open = new Set<() => void>();
  // Streams never end by themselves: shutting down ends them first, so closing does not wait on them.
  fastify.addHook('preClose', async () => {
    for (const end of [...open]) end();
    deps.hub.close();
  });
  fastify.addHook('onClose', async () => presence.close());

  app.get('/v1/stream', {
    config: { auth: { scope: 'events:read' } },
    schema: {
      tags: ['Events'],
      summary: 'The live stream: changes and presence as Server-Sent Events',
      description:
        'A `text/event-stream` that stays open: each change of the organization as an `event: change` message (its `id:` the ' +
        "event's id, its data the event exactly as in the change feed, filtered by the caller's scopes the same way), " +
        '`event: presence` messages (who is viewing or replying on which ticket, for callers with tickets:read; the current ' +
        'state of every ticket with someone on it is sent first), and a comment line every ~15 s. `Last-Event-ID` resumes ' +
        'after that event; one no longer kept starts at the current end with an `event: resync` message (reload what you show). ' +
        'Open streams are capped per key or user and per organization (429).',
      headers: StreamHeaders,
      response: responses({ 200: EventStream, 429: ErrorBody }),
    },
    handler: async (request, reply) => {
      const auth = authOf(request);
      const release = deps.streams.open(auth);
      try {
        const start = await streamStart(deps, auth.organizationId, request.headers['last-event-id']);
        openEventStream(deps, auth, request, reply, { start, release, open });
      } catch (error) {
        release();
        throw error;
      }
      return reply;
    },
  });

  app.put('/v1/tickets/:ticket_id/presence', {
    config: { auth: { scope: 'tickets:read' } },
    schema: {
      tags: ['Tickets'],
      summary: 'Say that you are viewing or replying on a ticket (presence)',
      description:
        'Shown to the live streams of the organization that may read tickets, as `event: presence`. An entry lapses about 45 s ' +
        'after its last refresh; `gone` removes it at once. A signed-in user appears by their full name; an API key by its name.',
      params: PresenceParams,
      body: PresenceBody,
      response: responses({ 204: Type.Null(), 404: ErrorBody }),
    },
    handler: async (request, reply) => {
      await setPresence(deps, authOf(request), request.params.ticket_id, request.body.state);
      return reply.code(204).send(null);
    },
  });
}
