import { errors } from '../errors.js';

export interface Page {
  limit: number;
  offset: number;
}

/** Reads a page from `limit` and `offset`/`skip` (the same parameter under two names). */
export function toPage(query: { limit: number; offset?: number | undefined; skip?: number | undefined }): Page {
  if (query.offset !== undefined && query.skip !== undefined && query.offset !== query.skip) {
    throw errors.invalidField('query.skip', 'must equal offset when both are given (they are the same parameter)');
  }
  return { limit: query.limit, offset: query.offset ?? query.skip ?? 0 };
}
