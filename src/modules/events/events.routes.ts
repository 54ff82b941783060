import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { authOf } from '../../auth/authenticate.js';
import { HISTORY_ORDER } from './events.repository.js';
import { toPage, withNextLink } from '../../shared/pagination.js';
import { ErrorBody, responses } from '../../shared/schemas.js';
import { Event, FeedPage, FeedQuery, TicketEventsParams, TicketEventsQuery } from './events.schemas.js';
import * as events from './events.service.js';

export async function eventsRoutes(fastify: FastifyInstance, deps: events.EventDeps): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();

  app.get('/v1/events', {
    config: { auth: { scope: 'events:read' } },
    schema: {
      tags: ['Events'],
      summary: 'The change feed: events after a cursor, in commit order',
      description:
        'Every change of the organization, oldest first, in the order the changes were committed. Start without `after`, ' +
        'then pass the `next_cursor` of each answer as `after`: no event is ever skipped or repeated, also with several ' +
        'server processes writing at once. `after=now` starts at the current end: no events, and the `next_cursor` to follow ' +
        'what happens from then on. A cursor older than the retention period is 410. Only the events of resources ' +
        'the key may read are shown: `ticket.*` needs tickets:read, `comment.*` comments:read, `attachment.*` attachments:read, ' +
        '`customer.*` customers:read, `team.*` teams:read, `user.*` users:read, `api_key.*` an admin key; events:read alone shows none.',
      querystring: FeedQuery,
      response: responses({ 200: FeedPage, 410: ErrorBody }),
    },
    handler: (request) => events.readFeed(deps, authOf(request), request.query),
  });

  app.get('/v1/tickets/:ticket_id/events', {
    config: { auth: { scope: 'tickets:read' } },
    schema: {
      tags: ['Tickets'],
      summary: "A ticket's history, oldest first",
      description:
        'The events of the ticket and of its comments and attachments (those only with `comments:read` and ' +
        '`attachments:read` respectively), oldest first.',
      params: TicketEventsParams,
      querystring: TicketEventsQuery,
      response: responses({ 200: Type.Array(Event), 404: ErrorBody }),
    },
    handler: async (request, reply) => {
      const page = toPage(request.query);
      return withNextLink(request, reply, page, await events.ticketHistory(deps, authOf(request), request.params.ticket_id, request.query, page), HISTORY_ORDER);
    },
  });
}
