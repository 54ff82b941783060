import { Type, type Static } from 'typebox';
import { Uuid } from '../../shared/schemas.js';

export const PresenceParams = Type.Object({ ticket_id: Uuid() });

export const PresenceBody = Type.Object(
  {
    state: Type.Union([Type.Literal('viewing'), Type.Literal('replying'), Type.Literal('gone')], {
      description: '`viewing` or `replying` (refresh it every ~20 s: it lapses after about 45 s), or `gone` when leaving the ticket',
    }),
  },
  { additionalProperties: false },
);
export type PresenceBody = Static<typeof PresenceBody>;

export const StreamHeaders = Type.Object({
  'last-event-id': Type.Optional(
    Type.String({ maxLength: 200, description: 'The `id` of the last `change` message received: the stream resumes right after it (browsers send it when they reconnect)' }),
  ),
});

// Never serialized (the handler writes the stream itself); the schema documents it.
export const EventStream = Type.Unsafe<string>({
  type: 'string',
  description:
    'A `text/event-stream`. `event: change` messages (`id:` the event id, `data:` the event as in the change feed), `event: presence` ' +
    'messages (`data: { "ticket_id", "users": [ { "id", "type", "name", "state" } ] }`), `event: resync` when Last-Event-ID named no kept event, ' +
    'and comment lines as heartbeats every ~15 s.',
  'x-content-types': ['text/event-stream'],
});
