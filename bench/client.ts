import autocannon, { type Result } from 'autocannon';
import { Agent, request } from 'node:http';
import { percentile } from './common.js';

/**
 * The load-generating side of the benchmark, run as a child process so that the client does not
 * take turns with the server on one event loop. (Not a worker thread: autocannon treats any
 * worker thread as one of its own and then skips aggregating its results.)
 */
export interface ClientInput {
  baseUrl: string;
  bareUrl: string;
  key: string;
  ticketIds: string[];
  searchTerm: string;
  samples: number;
  warmup: number;
  connections: number;
  durationSeconds: number;
  /** Ticket-create throughput targets: each is one or more processes of the same service, loaded at once. */
  creates: Array<{ name: string; baseUrls: string[] }>;
  /** Connections for the create runs, split evenly over a target's processes. */
  createConnections: number;
  /** Measure the creates only (the webhook phase of the bench). */
  createsOnly?: boolean;
}

export interface LatencyResult {
  name: string;
  path: string;
  median: number;
  p95: number;
  items: number;
  failures: number;
}

export interface ThroughputResult {
  name: string;
  requestsPerSecond: number;
  /** Requests answered with a 2xx status in all. */
  succeeded: number;
  latencyP50: number;
  latencyP99: number;
  non2xx: number;
  errors: number;
}

export interface ClientOutput {
  latency: LatencyResult[];
  throughput: ThroughputResult[];
  creates: ThroughputResult[];
}

const input = await new Promise<ClientInput>((resolve) => process.once('message', (m) => resolve(m as ClientInput)));
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const headers = { authorization: `Bearer ${input.key}` };
const randomId = () => input.ticketIds[Math.floor(Math.random() * input.ticketIds.length)]!;

function get(path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${input.baseUrl}${path}`, { agent, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}


/** Sequential requests, one at a time: the latency a single client sees. */
async function latency(name: string, path: () => string): Promise<LatencyResult> {
  for (let i = 0; i < input.warmup; i++) await get(path());
  const times: number[] = [];
  let failures = 0;
  let items = 0;
  const example = path();
  for (let i = 0; i < input.samples; i++) {
    const started = performance.now();
    const res = await get(path());
    times.push(performance.now() - started);
    if (res.status !== 200) failures++;
    else if (i === 0) {
      const body = JSON.parse(res.body) as unknown;
      items = Array.isArray(body) ? body.length : 1;
    }
  }
  times.sort((a, b) => a - b);
  return { name, path: example, median: percentile(times, 50), p95: percentile(times, 95), items, failures };
}

const figures = (name: string, result: Result): ThroughputResult => ({
  name,
  requestsPerSecond: result.requests.average,
  succeeded: result['2xx'],
  latencyP50: result.latency.p50,
  latencyP99: result.latency.p99,
  non2xx: result.non2xx,
  errors: result.errors,
});

let created = 0;
/** POST /v1/tickets to every process of a target at once; the rates add up, latencies are the worst. */
async function createThroughput(name: string, baseUrls: string[]): Promise<ThroughputResult> {
  const connections = Math.max(1, Math.round(input.createConnections / baseUrls.length));
  const results = await Promise.all(
    baseUrls.map((url) =>
      autocannon({
        url: `${url}/v1/tickets`,
        connections,
        duration: input.durationSeconds,
        headers: { ...headers, 'content-type': 'application/json' },
        requests: [
          {
            method: 'POST',
            setupRequest: (req) => {
              const n = ++created;
              const body = { customer_name: `Bench ${n % 500}`, customer_email: `bench${n % 500}@example.com`, subject: `Created by the bench ${n}`, description: 'Load' };
              return { ...req, body: JSON.stringify(body) };
            },
          },
        ],
      }),
    ),
  );
  const each = results.map((r) => figures(name, r));
  return {
    name,
    requestsPerSecond: each.reduce((sum, r) => sum + r.requestsPerSecond, 0),
    succeeded: each.reduce((sum, r) => sum + r.succeeded, 0),
    latencyP50: Math.max(...each.map((r) => r.latencyP50)),
    latencyP99: Math.max(...each.map((r) => r.latencyP99)),
    non2xx: each.reduce((sum, r) => sum + r.non2xx, 0),
    errors: each.reduce((sum, r) => sum + r.errors, 0),
  };
}

const term = encodeURIComponent(input.searchTerm);
const output: ClientOutput = { latency: [], throughput: [], creates: [] };
if (!input.createsOnly) {
  output.latency.push(
    await latency('search', () => `/v1/tickets?search=${term}`),
    await latency('filtered list', () => '/v1/tickets?status=open&priority=high'),
    await latency('get by id', () => `/v1/tickets/${randomId()}`),
    await latency('dashboard', () => '/v1/dashboard'),
  );
  // get-by-id throughput against a bare route is bench/get-by-id.ts (wrk, the same JSON and schema).
}
agent.destroy();
// Last: creates add tickets, and the reads above should see the seeded set only.
for (const target of input.creates) output.creates.push(await createThroughput(target.name, target.baseUrls));
process.send?.(output, () => process.disconnect());
