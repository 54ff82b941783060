import { connect, createServer, type Server, type Socket } from 'node:net';

/**
 * Fault injection for the resilience suites: a TCP proxy to put between the service and a
 * dependency (PostgreSQL), whose network the test can break in the ways networks break.
 */

interface Link {
  client: Socket;
  upstream: Socket;
  /** Its traffic is held back (not forwarded) until healed, or forever. */
  held: boolean;
  /** What was sent while held, in order: delivered late when a partition heals, as TCP would. */
  queue: Array<{ to: Socket; data: Buffer }>;
}

export class TcpProxy {
  private server: Server | null = null;
  private readonly links = new Set<Link>();
  private silent = false;
  port = 0;

  constructor(
    private readonly targetHost: string,
    private readonly targetPort: number,
  ) {}

  /** Open connections through the proxy. */
  get connections(): number {
    return this.links.size;
  }

  async start(): Promise<void> {
    const server = createServer((client) => this.accept(client));
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  private accept(client: Socket): void {
    const upstream = connect(this.targetPort, this.targetHost);
    const link: Link = { client, upstream, held: this.silent, queue: [] };
    this.links.add(link);
    for (const s of [client, upstream]) {
      s.on('error', () => undefined);
      s.on('close', () => {
        this.links.delete(link);
        client.destroy();
        upstream.destroy();
      });
    }
    // Forwarding by hand (not pipe) so a link can be held: the other side hears nothing meanwhile.
    client.on('data', (data: Buffer) => (link.held ? link.queue.push({ to: upstream, data }) : upstream.write(data)));
    upstream.on('data', (data: Buffer) => (link.held ? link.queue.push({ to: client, data }) : client.write(data)));
  }

  /** Resets every open connection (RST, as a failing router or a restarted firewall would). */
  resetAll(): void {
    for (const link of this.links) {
      link.client.resetAndDestroy();
      link.upstream.destroy();
    }
  }

  /**
   * The network goes silent: open connections stop carrying anything (bytes are dropped), and new
   * connections are accepted but get no answer — a partition, or a host that froze.
   */
  goSilent(): void {
    this.silent = true;
    for (const link of this.links) link.held = true;
  }

  /**
   * The network is back. New connections work again; `oldConnections: 'resume'` lets the ones
   * opened before carry traffic again too, delivering late what was sent meanwhile (a partition
   * that heals, TCP retransmitting), `'never'` keeps them silent for good (their server is gone:
   * a host crash, a failover), which only a timeout on the client can notice.
   */
  heal(oldConnections: 'resume' | 'never'): void {
    this.silent = false;
    if (oldConnections === 'never') return;
    for (const link of this.links) {
      link.held = false;
      for (const { to, data } of link.queue.splice(0)) to.write(data);
    }
  }

  async stop(): Promise<void> {
    for (const link of this.links) {
      link.client.destroy();
      link.upstream.destroy();
    }
    const server = this.server;
    this.server = null;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
