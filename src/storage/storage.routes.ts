import type { FastifyInstance } from 'fastify';
import type { AppDeps } from '../app.js';

/** Serves signed download addresses ({storage_url}/...). */
export async function storageRoutes(_fastify: FastifyInstance, _deps: AppDeps): Promise<void> {
  // TODO
}
