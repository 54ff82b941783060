import type { LookupAddress } from 'node:dns';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ForbiddenTargetError, isForbiddenAddress, postToTarget, vettedLookup } from './webhooks.target.js';

/**
 * The address rules of webhook targets (SSRF), and the lookup that applies them to what a name
 * resolves to at delivery time. A resolver that answers as a hostile DNS server would stands in
 * for DNS here; the connection itself is real.
 */

describe('which addresses a webhook may reach', () => {
  it.each([
    '127.0.0.1', '127.255.255.254', '10.0.0.1', '10.255.0.9', '172.16.0.1', '172.31.255.255', '192.168.0.1', '169.254.169.254',
    '169.254.0.1', '100.64.0.1', '100.127.255.255', '0.0.0.0', '0.1.2.3', '255.255.255.255', '224.0.0.1', '239.1.2.3', '192.0.2.10',
    '198.51.100.7', '203.0.113.9', '198.18.0.1', '240.0.0.1', '::1', '::', 'fc00::1', 'fd12:3456::1', 'fe80::1', 'fe80::1%1', 'ff02::1',
    '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::ffff:169.254.169.254', '64:ff9b::a00:1', '2002:7f00:1::', '2001::1',
    '2001:db8::1', 'fec0::1', 'not an address', '',
  ])('refuses %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  // Every IPv6 form that reaches, or embeds, an IPv4 address that is not public; and the rest of ::/8.
  const embedded = ['127.0.0.1', '169.254.169.254', '10.1.2.3', '192.168.0.1', '100.64.0.1', '0.0.0.0', '198.18.0.1'];
  it.each([
    ...embedded.flatMap((v4) => [`::${v4}`, `::ffff:${v4}`, `64:ff9b::${v4}`, `::ffff:0:${v4}`]),
    '::7f00:1', '::a9fe:a9fe', '::8.8.8.8', '::ffff:0:8.8.8.8', '::2', '::1:0:0:1', '00ff:ffff::1', '1::', '100::1',
    '2002:7f00:1::', '2002:a9fe:a9fe::1', '2002:808:808::1', '2001::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001:2::1', '2001:20::1',
    '64:ff9b:1::8.8.8.8', 'fc00::1', 'fdff:ffff::1', 'fe80::1', 'febf:ffff::1', 'fec0::1', 'ff00::1', 'ff05::2', '3fff::1', '5f00::1', '4000::1',
  ])('refuses the IPv6 address %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each([
    '0.255.255.255', '100.64.0.0', '100.127.255.255', '127.255.255.255', '169.254.0.0', '192.0.0.8', '192.88.99.1', '198.19.255.255',
    '198.51.100.1', '203.0.113.255', '224.0.0.0', '255.255.255.254',
  ])('refuses the IPv4 address %s', (address) => {
    expect(isForbiddenAddress(address)).toBe(true);
  });

  it.each(['64:ff9b::8.8.8.8', '64:ff9b::5db8:d822', '::ffff:8.8.8.8', '2001:4860:4860::8888', '2a00:1450:4001::200e', '2c0f:fb50::1', '100.128.0.1', '198.20.0.1'])(
    'allows the public address %s (NAT64 and IPv4-mapped forms of a public IPv4 address included)',
    (address) => {
      expect(isForbiddenAddress(address)).toBe(false);
    },
  );

  it.each(['93.184.216.34', '8.8.8.8', '1.1.1.1', '172.15.255.255', '172.32.0.1', '100.63.255.255', '2606:2800:220:1:248:1893:25c8:1946', '::ffff:93.184.216.34'])(
    'allows the public address %s',
    (address) => {
      expect(isForbiddenAddress(address)).toBe(false);
    },
  );
});

function resolver(answers: Record<string, string[]>) {
  const asked: string[] = [];
  const resolve = (hostname: string, _options: unknown, callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void) => {
    asked.push(hostname);
    const list = answers[hostname];
    if (!list) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
    callback(null, list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })));
  };
  return { resolve, asked };
}

const lookupOnce = (lookup: ReturnType<typeof vettedLookup>, hostname: string, all: boolean) =>
  new Promise<{ error: Error | null; address: string | LookupAddress[] }>((resolve) =>
    lookup(hostname, { all }, (error, address) => resolve({ error, address })),
  );

describe('the lookup used for deliveries', () => {
  it('refuses a name when any of its addresses is not public, even if others are', async () => {
    const { resolve } = resolver({ 'mixed.example': ['93.184.216.34', '10.0.0.1'], 'meta.example': ['169.254.169.254'], 'six.example': ['::1'] });
    const lookup = vettedLookup(false, resolve);
    for (const [name, address] of [['mixed.example', '10.0.0.1'], ['meta.example', '169.254.169.254'], ['six.example', '::1']] as const) {
      const { error } = await lookupOnce(lookup, name, false);
      expect(error).toBeInstanceOf(ForbiddenTargetError);
      expect(error!.message).toBe(`${name} resolves to ${address}, which is not a public address`);
    }
  });

  it.each([
    '::127.0.0.1', '::169.254.169.254', '::7f00:1', '::1', '::', '::ffff:127.0.0.1', '::ffff:169.254.169.254', '64:ff9b::10.0.0.1',
    '64:ff9b::a9fe:a9fe', '2002:7f00:1::1', '2001::1', 'fd00::1', 'fe80::1', 'ff02::1', '0.0.0.0', '100.64.0.1', '198.18.0.1',
  ])('refuses a name that resolves to %s when connecting', async (address) => {
    const { resolve } = resolver({ 'rebound.example': ['93.184.216.34', address] });
    const { error } = await lookupOnce(vettedLookup(false, resolve), 'rebound.example', true);
    expect(error).toBeInstanceOf(ForbiddenTargetError);
    expect(error!.message).toBe(`rebound.example resolves to ${address}, which is not a public address`);
  });

  it.each(['[::127.0.0.1]', '[::169.254.169.254]', '[::ffff:127.0.0.1]', '[64:ff9b::127.0.0.1]', '[2002:7f00:1::]', '[::]', '0.0.0.0'])(
    'refuses to send to the literal address %s without any lookup',
    async (host) => {
      const lookup = () => {
        throw new Error('no lookup expected');
      };
      await expect(postToTarget(`https://${host}:1/`, '{}', {}, { timeoutMs: 2000, allowPrivate: false, lookup })).rejects.toThrow(
        /non-public address .*WEBHOOKS_ALLOW_PRIVATE=true/,
      );
    },
  );

  it('hands the socket exactly the addresses it checked', async () => {
    const { resolve } = resolver({ 'ok.example': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'] });
    const lookup = vettedLookup(false, resolve);
    expect((await lookupOnce(lookup, 'ok.example', false)).address).toBe('93.184.216.34');
    expect((await lookupOnce(lookup, 'ok.example', true)).address).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1:248:1893:25c8:1946', family: 6 },
    ]);
  });

  it('with WEBHOOKS_ALLOW_PRIVATE=true, private answers are used', async () => {
    const { resolve } = resolver({ 'dev.example': ['127.0.0.1'] });
    expect(await lookupOnce(vettedLookup(true, resolve), 'dev.example', false)).toEqual({ error: null, address: '127.0.0.1' });
  });

  it('a name that resolves to loopback at delivery time is never connected to, whatever it resolved to before', async () => {
    let connections = 0;
    const server = createServer((_req, res) => res.end('ok'));
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      // DNS rebinding: the name was public when the endpoint was saved, and points at loopback now.
      const { resolve, asked } = resolver({ 'rebound.example': ['127.0.0.1'] });
      const lookup = vettedLookup(false, resolve);
      const post = postToTarget(`https://rebound.example:${port}/`, '{}', {}, { timeoutMs: 2000, allowPrivate: false, lookup });
      await expect(post).rejects.toThrow('rebound.example resolves to 127.0.0.1, which is not a public address');
      expect(asked).toEqual(['rebound.example']);
      // An address written in the URL is checked without any lookup.
      await expect(postToTarget(`https://127.0.0.1:${port}/`, '{}', {}, { timeoutMs: 2000, allowPrivate: false })).rejects.toThrow(ForbiddenTargetError);
      await expect(postToTarget(`http://93.184.216.34/`, '{}', {}, { timeoutMs: 2000, allowPrivate: false })).rejects.toThrow('must be an https:// URL');
      expect(connections).toBe(0);
      // With the setting, the same request goes through.
      const { resolve: devResolve } = resolver({ 'dev.example': ['127.0.0.1'] });
      expect((await postToTarget(`http://dev.example:${port}/`, '{}', {}, { timeoutMs: 2000, allowPrivate: true, lookup: vettedLookup(true, devResolve) })).status).toBe(200);
      expect(connections).toBe(1);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
