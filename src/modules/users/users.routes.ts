import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../../app.js';

export async function usersRoutes(_fastify: FastifyInstance, _deps: AppDeps): Promise<void> {
  // TODO: routes of the users module.
}
