import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { percentile } from './common.js';

/**
 * The webhook side of the benchmark: a receiver on 127.0.0.1 that notes when each delivery
 * arrives, and the delivery latency from commit to receiver. The start is the event's own
 * timestamp (`timestamp` in the body: taken in the writing transaction, a moment before it
 * commits), the end when the receiver has read the body.
 */
export interface BenchReceiver {
  url: string;
  /** Arrival time (Date.now()) minus the event's timestamp, per ticket created (its first delivery). */
  latencies: Map<string, number>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<BenchReceiver> {
  const latencies = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const arrived = Date.now();
      // Keyed by the ticket (only ticket.created is subscribed); a repeated delivery counts once.
      const { timestamp, data } = JSON.parse(body) as { timestamp: string; data: { resource_id: string } };
      if (!latencies.has(data.resource_id)) latencies.set(data.resource_id, arrived - Date.parse(timestamp));
      res.writeHead(200).end();
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    latencies,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface LatencyFigures {
  name: string;
  samples: number;
  received: number;
  p50: number;
  p95: number;
  max: number;
}


async function post(baseUrl: string, key: string, path: string, body: unknown): Promise<Record<string, unknown>> {
  const res = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`POST ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as Record<string, unknown>;
}

/** Subscribes the receiver to ticket creates; resolves to a function that unsubscribes it. */
export async function subscribe(baseUrl: string, key: string, receiver: BenchReceiver): Promise<() => Promise<void>> {
  const hook = await post(baseUrl, key, '/v1/webhooks', { url: receiver.url, events: ['ticket.created'] });
  return async () => {
    await fetch(`${baseUrl}/v1/webhooks/${String(hook.id)}`, { method: 'DELETE', headers: { authorization: `Bearer ${key}` } });
  };
}

/**
 * Creates `samples` tickets one after another, `gapMs` apart, spread over the processes, and
 * waits for every delivery: the latency a receiver sees when the service is not saturated.
 */
export async function deliveryLatency(
  name: string,
  baseUrls: string[],
  key: string,
  receiver: BenchReceiver,
  options: { samples: number; gapMs: number },
): Promise<LatencyFigures> {
  const ids: string[] = [];
  for (let i = 0; i < options.samples; i++) {
    const ticket = await post(baseUrls[i % baseUrls.length]!, key, '/v1/tickets', {
      customer_name: 'Latency',
      customer_email: `latency${i % 50}@example.com`,
      subject: `Webhook latency ${i}`,
      description: 'Measuring commit to receiver',
    });
    ids.push(String(ticket.id));
    await new Promise((resolve) => setTimeout(resolve, options.gapMs));
  }
  const arrived = () => ids.filter((id) => receiver.latencies.has(id)).length;
  await drained(arrived, options.samples, 30_000).catch(() => undefined);
  const values = ids.flatMap((id) => receiver.latencies.get(id) ?? []).sort((a, b) => a - b);
  return { name, samples: options.samples, received: values.length, p50: percentile(values, 50), p95: percentile(values, 95), max: values.at(-1) ?? Number.NaN };
}

/** Resolves once `count()` reaches `target`, or rejects after `timeoutMs`. */
export async function drained(count: () => number, target: number, timeoutMs: number): Promise<number> {
  const started = Date.now();
  while (count() < target) {
    if (Date.now() - started > timeoutMs) throw new Error(`only ${count()} of ${target} deliveries arrived within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return Date.now() - started;
}
