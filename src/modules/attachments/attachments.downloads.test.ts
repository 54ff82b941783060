import { randomUUID } from 'node:crypto';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTicket, PNG, upload } from '../../../test/helpers/attachments.js';
import { buildTestApp, TEST_STORE, type TestApp } from '../../../test/helpers/test-app.js';
import { createUrlSigner } from '../../storage/signed-urls.js';

// Signed downloads as a client fetches them (attachments.downloads.routes.ts); the signing secret
// and the storage backends are src/storage/storage.test.ts.

let t: TestApp;
let ticketId: string;
beforeAll(async () => {
  t = await buildTestApp();
  ticketId = await createTicket(t);
});
afterAll(async () => {
  await t.close();
});

const HTML_NAME = 'résumé <script>.html';
const HTML = '<!doctype html><script>alert(document.cookie)</script>';

async function uploaded(filename: string, type: string, data: Buffer | string): Promise<string> {
  const res = await upload(t, ticketId, filename, type, data);
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string }>().id;
}

async function signedUrl(id: string): Promise<{ signed_url: string; expires_at: string }> {
  const res = await t.request({ method: 'GET', url: `/v1/tickets/${ticketId}/attachments/${id}/download` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

/** The signed address as a path on this service (the test app's storage URL is http://localhost:8080/storage). */
const pathOf = (signed: string) => {
  const url = new URL(signed);
  return `${url.pathname}${url.search}`;
};

const fetchSigned = (url: string, headers: Record<string, string> = {}, method: 'GET' | 'HEAD' = 'GET') =>
  t.app.inject({ method, url: pathOf(url), headers });

describe('signed downloads', () => {
  it('issues an address valid for an hour that serves the bytes without a key, safely', async () => {
    const id = await uploaded(HTML_NAME, 'text/html', HTML);
    const before = Date.now();
    const link = await signedUrl(id);
    expect(link.signed_url).toMatch(new RegExp(`^http://localhost:8080/storage/${id}\\?expires=\\d+&signature=[\\w-]{43}$`));
    expect(link.expires_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    const ttl = Date.parse(link.expires_at) - before;
    expect(ttl).toBeGreaterThanOrEqual(3_600_000 - 1000);
    expect(ttl).toBeLessThanOrEqual(3_600_000 + 2000);
    expect(new URL(link.signed_url).searchParams.get('expires')).toBe(String(Date.parse(link.expires_at) / 1000));

    const res = await fetchSigned(link.signed_url);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(HTML);
    expect(res.headers['content-type']).toBe('text/html');
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(HTML)));
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toBe('sandbox');
    expect(res.headers['accept-ranges']).toBe('bytes');
    expect(res.headers['cache-control']).toBe('private');
    const disposition = String(res.headers['content-disposition']);
    expect(disposition).toMatch(/^attachment; filename="resume <script>\.html"; filename\*=UTF-8''r%C3%A9sum%C3%A9%20%3Cscript%3E\.html$/);
  });

  it('serves binary bytes unchanged, and HEAD with headers only', async () => {
    const id = await uploaded('pixel.png', 'image/png', PNG);
    const { signed_url } = await signedUrl(id);
    const res = await fetchSigned(signed_url);
    expect(res.statusCode).toBe(200);
    expect(res.rawPayload.equals(PNG)).toBe(true);
    expect(res.headers['content-type']).toBe('image/png');
    const head = await fetchSigned(signed_url, {}, 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.headers['content-length']).toBe(String(PNG.length));
    expect(head.body).toBe('');
    expect(head.headers['content-type']).toBe('image/png');
    const headRange = await fetchSigned(signed_url, { range: 'bytes=0-3' }, 'HEAD');
    expect(headRange.statusCode).toBe(206);
    expect(headRange.headers['content-length']).toBe('4');
  });

  it('answers a single range with 206, several with the whole file, an impossible one with 416', async () => {
    const data = 'abcdefghijklmnopqrstuvwxyz';
    const id = await uploaded('letters.txt', 'text/plain', data);
    const { signed_url } = await signedUrl(id);

    const part = await fetchSigned(signed_url, { range: 'bytes=2-5' });
    expect(part.statusCode).toBe(206);
    expect(part.body).toBe('cdef');
    expect(part.headers['content-range']).toBe(`bytes 2-5/${data.length}`);
    expect(part.headers['content-length']).toBe('4');

    const suffix = await fetchSigned(signed_url, { range: 'bytes=-3' });
    expect(suffix.statusCode).toBe(206);
    expect(suffix.body).toBe('xyz');

    const several = await fetchSigned(signed_url, { range: 'bytes=0-1,10-12' });
    expect(several.statusCode).toBe(200);
    expect(several.body).toBe(data);

    const impossible = await fetchSigned(signed_url, { range: 'bytes=100-200' });
    expect(impossible.statusCode).toBe(416);
    expect(impossible.headers['content-range']).toBe(`bytes */${data.length}`);
    expect(impossible.json<{ detail: string }>().detail).toBeTruthy();
  });

  it('refuses tampered, expired, unknown and unsigned addresses with 403', async () => {
    const id = await uploaded('a.txt', 'text/plain', 'secret');
    const { signed_url } = await signedUrl(id);
    const url = new URL(signed_url);
    const signature = url.searchParams.get('signature') ?? '';
    const expires = url.searchParams.get('expires') ?? '';

    const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
    const variants = [
      `/storage/${id}?expires=${expires}&signature=${flipped}`,
      `/storage/${id}?expires=${Number(expires) + 60}&signature=${signature}`,
      `/storage/${randomUUID()}?expires=${expires}&signature=${signature}`,
      `/storage/${id}?expires=${expires}`,
      `/storage/${id}`,
      `/storage/not-a-uuid?expires=${expires}&signature=${signature}`,
      `/storage/${id}?expires=1e308&signature=${signature}`,
      `/storage/${id}?expires=9223372036854775808&signature=${signature}`,
      `/storage/${id}?expires=${expires}&signature=${signature}x`,
    ];
    for (const path of variants) {
      const res = await t.app.inject({ method: 'GET', url: path });
      expect(res.statusCode, path).toBe(403);
      expect(res.json<{ detail: string }>().detail, path).toMatch(/invalid or has expired/);
    }

    // Signed with this installation's secret, but already expired.
    const signer = createUrlSigner(t.config);
    const expired = signer.signUntil(id, Math.floor(Date.now() / 1000) - 1);
    expect((await fetchSigned(expired.signed_url)).statusCode).toBe(403);
    // An unknown id with a genuine signature is refused too.
    expect((await fetchSigned(signer.sign(randomUUID()).signed_url)).statusCode).toBe(403);
    // The untouched address still works.
    expect((await fetchSigned(signed_url)).statusCode).toBe(200);
  });

  it('stops serving an attachment once it is deleted', async () => {
    const id = await uploaded('gone.txt', 'text/plain', 'bye');
    const { signed_url } = await signedUrl(id);
    expect((await t.request({ method: 'DELETE', url: `/v1/tickets/${ticketId}/attachments/${id}` })).statusCode).toBe(204);
    expect((await fetchSigned(signed_url)).statusCode).toBe(403);
  });

  // With PostgreSQL (production mode) the test app is given a SIGNING_SECRET instead.
  it.runIf(TEST_STORE === 'sqlite')('keeps the generated secret in the data directory, private, so addresses survive a restart', async () => {
    const path = join(t.dataDir, 'signing-secret');
    expect(existsSync(path)).toBe(true);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    const id = await uploaded('kept.txt', 'text/plain', 'kept');
    const { signed_url } = await signedUrl(id);
    const url = new URL(signed_url);
    const restarted = createUrlSigner(t.config);
    expect(restarted.verify(id, url.searchParams.get('expires'), url.searchParams.get('signature'))).toBe(true);
    const configured = createUrlSigner({ ...t.config, signingSecret: 'x'.repeat(32) });
    expect(configured.verify(id, url.searchParams.get('expires'), url.searchParams.get('signature'))).toBe(false);
  });
});
