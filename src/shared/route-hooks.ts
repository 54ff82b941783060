import type { RouteOptions } from 'fastify';

/** The lifecycle hooks a route's own options can carry. */
type RouteHookName = 'onRequest' | 'preParsing' | 'preValidation' | 'preHandler' | 'preSerialization' | 'onSend' | 'onResponse';

/**
 * Adds a hook to one route's own hooks (from an `onRoute` hook), for a rule that only some routes
 * follow: an app-level hook runs on every request of every route, even when all it does is return.
 * Route-level hooks run after the app-level ones of the same kind, in the order they were added;
 * `first` puts this one before the route's others (those other plugins added from their own
 * onRoute hooks). A new array every time: the route's array may be shared with the options of
 * its HEAD twin, which goes through onRoute again.
 */
export function addRouteHook(route: RouteOptions, name: RouteHookName, hook: (...args: never[]) => unknown, options: { first?: boolean } = {}): void {
  const existing = (route as unknown as Record<string, unknown>)[name];
  const list = existing === undefined ? [] : Array.isArray(existing) ? (existing as unknown[]) : [existing];
  (route as unknown as Record<string, unknown>)[name] = options.first ? [hook, ...list] : [...list, hook];
}

/** The methods of a route's options, as a list. */
export const methodsOf = (method: string | string[]): string[] => (Array.isArray(method) ? method : [method]);
