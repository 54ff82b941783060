import { Type, type Static } from 'typebox';
import { named, StringEnum } from '../../shared/schemas.js';

export const CheckResult = StringEnum(['ok', 'unavailable'] as const, { description: 'Outcome of one dependency check' });

export const Liveness = named('Liveness', Type.Object({ status: Type.Literal('ok') }, { description: 'The process is serving requests' }));

export const ReadinessChecks = named('ReadinessChecks', Type.Object({
  store: CheckResult,
  redis: Type.Optional(CheckResult),
}));

export const Readiness = named('Readiness', Type.Object(
  {
    status: StringEnum(['ready', 'degraded'] as const, {
      description: 'ready: every check passed; degraded: serving, but Redis is unavailable so rate limits are not enforced',
    }),
    checks: ReadinessChecks,
  },
  { description: 'The process can serve API requests' },
));

export const NotReady = named('NotReady', Type.Object(
  {
    status: Type.Literal('unavailable'),
    detail: Type.String({ examples: ['Not ready: store is unavailable'] }),
    checks: ReadinessChecks,
  },
  { description: 'The process cannot serve API requests now; `checks` says which dependency failed' },
));

export type ReadinessChecksT = Static<typeof ReadinessChecks>;
