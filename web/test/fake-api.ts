/**
 * The network of the console's component tests: the one thing they fake. The SDK's fetch (taken
 * from globalThis when web/src/api.ts creates the client, hence installed by setup.ts before any
 * test imports it) goes to the routes a test declares, answered with API-shaped JSON. Everything
 * of the console itself runs for real.
 */
export type Route = (request: Request, url: URL) => Response | undefined | Promise<Response | undefined>;

const routes: Route[] = [];
/** Every request made, as "METHOD /path?query", in order. */
export const requests: string[] = [];

/** Answers requests (the first route that returns a Response wins; none is a 404 and a test failure). */
export function route(handler: Route): void {
  routes.push(handler);
}

export function resetNetwork(): void {
  routes.length = 0;
  requests.length = 0;
}

export function json(body: unknown, init: { status?: number; headers?: Record<string, string> } = {}): Response {
  return new Response(JSON.stringify(body), { status: init.status ?? 200, headers: { 'content-type': 'application/json', ...init.headers } });
}

/** A page of `all` as the API answers a list: `limit` items after the cursor, and a `Link` to the next page when full. */
export function listPage<T>(all: T[], url: URL, defaultLimit: number): Response {
  const limit = Number(url.searchParams.get('limit') ?? defaultLimit);
  const start = Number(url.searchParams.get('cursor') ?? 0);
  const items = all.slice(start, start + limit);
  const next = new URL(url.pathname + url.search, url.origin);
  next.searchParams.set('cursor', String(start + limit));
  return json(items, items.length === limit ? { headers: { link: `<${next.pathname}${next.search}>; rel="next"` } } : {});
}

export const unanswered: string[] = [];

export async function fakeFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const request = input instanceof Request ? input : new Request(input, init);
  const url = new URL(request.url);
  requests.push(`${request.method} ${url.pathname}${url.search}`);
  for (const handler of routes) {
    const response = await handler(request, url);
    if (response) return response;
  }
  unanswered.push(`${request.method} ${url.pathname}`);
  return json({ detail: 'no such route in this test' }, { status: 404 });
}
