import { connect, type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTicket, storedBytes, upload, type StoredBytes } from '../../../test/helpers/attachments.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';

/**
 * Uploads whose input is wrong or hostile: multipart bodies the parser cannot finish, filenames
 * meant to mislead, binaries declared as text. Each is refused quickly with a 4xx and keeps
 * nothing, in both attachment backends, on whichever store the run uses.
 */
describe.each(['disk', 'database'] as const)('STORAGE_BACKEND=%s', (backend) => {
  let t: TestApp;
  let port: number;
  let ticketId: string;
  let empty: StoredBytes;
  beforeAll(async () => {
    t = await buildTestApp({ STORAGE_BACKEND: backend });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
    ticketId = await createTicket(t);
    empty = await storedBytes(t);
  });
  afterAll(async () => {
    await t.close();
  });

  interface Answer {
    status: number;
    body: string;
    ms: number;
  }

  /**
   * Sends a request over a real connection and resolves with the answer; the connection is kept
   * open by the client (keep-alive), so only the server's answer ends the wait. 10 s is a hang.
   */
  function send(contentType: string, body: Buffer | string): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const started = Date.now();
      const socket = connect(port, '127.0.0.1');
      let text = '';
      const timer = setTimeout(() => {
        socket.destroy();
        reject(new Error(`no answer within 10 s (received: ${JSON.stringify(text)})`));
      }, 10_000);
      socket.on('data', (data: Buffer) => {
        text += data.toString('utf8');
        const [head, rest] = text.split('\r\n\r\n', 2) as [string, string | undefined];
        const length = /content-length: (\d+)/i.exec(head)?.[1];
        if (rest !== undefined && length !== undefined && Buffer.byteLength(rest) >= Number(length)) {
          clearTimeout(timer);
          socket.destroy();
          resolve({ status: Number(head.slice(9, 12)), body: rest, ms: Date.now() - started });
        }
      });
      socket.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      const payload = Buffer.from(body);
      socket.write(
        `POST /v1/tickets/${ticketId}/attachments HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${t.org.adminKey}\r\n` +
          `Content-Type: ${contentType}\r\nContent-Length: ${payload.length}\r\n\r\n`,
      );
      socket.write(payload);
    });
  }

  const part = (data: string, boundary = 'b') =>
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\nContent-Type: text/plain\r\n\r\n${data}`;

  describe('multipart bodies the parser cannot finish: a quick 400, nothing kept', () => {
    it.each([
      // The fuzzer's find: a small file part and then the end, without the closing boundary.
      ['ends right after a small file part', 'multipart/form-data; boundary=b', `${part('hello')}\r\n`],
      ['ends in the middle of the file', 'multipart/form-data; boundary=b', part('hel')],
      ['ends after the closing CRLF of the part and a new delimiter', 'multipart/form-data; boundary=b', `${part('hello')}\r\n--b\r\n`],
      ['ends inside the part headers', 'multipart/form-data; boundary=b', '--b\r\nContent-Disposition: form-da'],
      ['uses another boundary than its Content-Type names', 'multipart/form-data; boundary=zz', `${part('hello')}\r\n--b--\r\n`],
      ['names no boundary at all', 'multipart/form-data; charset=utf-8', `${part('hello')}\r\n--b--\r\n`],
      // Larger than a chunk of the database backend (256 KiB), so bytes were already stored.
      ['ends after 600 kB of file without the closing boundary', 'multipart/form-data; boundary=b', part('x'.repeat(600_000))],
    ])('%s', async (_name, contentType, body) => {
      const answer = await send(contentType, body);
      expect(answer.status, answer.body).toBe(400);
      expect(JSON.parse(answer.body)).toEqual({ detail: expect.stringMatching(/multipart/i) as string });
      expect(answer.ms).toBeLessThan(5_000);
      expect(await storedBytes(t)).toEqual(empty);
    });

    it('a request left hanging that way does not hold up a graceful shutdown', async () => {
      // A fresh app, so closing it is the thing measured.
      const other = await buildTestApp({ STORAGE_BACKEND: backend });
      try {
        await other.app.listen({ port: 0, host: '127.0.0.1' });
        const otherTicket = await createTicket(other);
        const socket = connect((other.app.server.address() as AddressInfo).port, '127.0.0.1');
        const body = `${part('hello')}\r\n`;
        const answered = new Promise<string>((resolve) => socket.on('data', (d: Buffer) => resolve(d.toString('latin1'))));
        socket.on('error', () => undefined);
        socket.write(
          `POST /v1/tickets/${otherTicket}/attachments HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${other.org.adminKey}\r\n` +
            `Content-Type: multipart/form-data; boundary=b\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
        );
        expect(await answered).toMatch(/^HTTP\/1\.1 400 /);
        const closing = Date.now();
        await other.app.close();
        expect(Date.now() - closing).toBeLessThan(5_000);
        socket.destroy();
        expect(await storedBytes(other)).toEqual({ files: [], blobs: [], chunks: 0 });
      } finally {
        await other.close();
      }
    });
  });

  describe('filenames', () => {
    async function storedName(sent: string): Promise<string> {
      const res = await upload(t, ticketId, sent, 'text/plain', 'x');
      expect(res.statusCode, res.body).toBe(201);
      return res.json<{ filename: string }>().filename;
    }

    it('U+0000 in a filename is a 422 on every store, keeping nothing', async () => {
      const before = await storedBytes(t);
      const res = await upload(t, ticketId, 'a\u0000b.txt', 'text/plain', 'x');
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json()).toEqual({
        detail: expect.stringContaining('body.file.filename') as string,
        errors: [{ field: 'body.file.filename', message: 'must not contain the NUL character (U+0000)' }],
      });
      expect(await storedBytes(t)).toEqual(before);
    });

    it('keeps only the last segment of a path, from either kind of separator', async () => {
      expect(await storedName('../../etc/passwd')).toBe('passwd');
      expect(await storedName('C:\\Users\\ada\\Desktop\\report.txt')).toBe('report.txt');
      expect(await storedName('dir/')).toBe('attachment');
      expect(await storedName('..')).toBe('attachment');
    });

    it('neutralises bidirectional overrides and control characters, which disguise a name', async () => {
      expect(await storedName('résumé\u202Etxt.exe')).toBe('résumé_txt.exe');
      expect(await storedName('a\u2066b\u2069\u200Fc.txt')).toBe('a_b__c.txt');
      expect(await storedName('tab\there\u001b[31m.txt')).toBe('tab_here_[31m.txt');
      expect(await storedName('日本語 ファイル.txt')).toBe('日本語 ファイル.txt');
    });

    it('cuts a name to 255 characters, keeping its extension', async () => {
      const long = await storedName(`${'é'.repeat(400)}.txt`);
      expect([...long]).toHaveLength(255);
      expect(long).toBe(`${'é'.repeat(251)}.txt`);
      const exact = 'n'.repeat(255);
      expect(await storedName(exact)).toBe(exact);
    });
  });

  describe('text types must be text', () => {
    const refusal = (detected: string) => ({
      detail: `File content does not match its declared type: declared 'text/plain', but the content looks like '${detected}'`,
    });

    it('an executable declared text/plain is refused, naming what it is, and nothing is kept', async () => {
      const before = await storedBytes(t);
      const exe = Buffer.concat([Buffer.from('MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff', 'latin1'), Buffer.alloc(200)]);
      const res = await upload(t, ticketId, 'setup.exe', 'text/plain', exe);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(refusal('application/x-msdownload'));
      const elf = await upload(t, ticketId, 'tool', 'text/plain', Buffer.concat([Buffer.from('\x7fELF\x02\x01\x01', 'latin1'), Buffer.alloc(64)]));
      expect(elf.json()).toEqual(refusal('application/x-executable'));
      const html = await upload(t, ticketId, 'page.html', 'text/html', Buffer.concat([Buffer.from('<html>'), Buffer.alloc(10)]));
      expect(html.statusCode).toBe(400);
      expect(await storedBytes(t)).toEqual(before);
    });

    it('a binary byte far into a text file is refused too', async () => {
      const before = await storedBytes(t);
      const text = Buffer.alloc(700_000, 'lorem ipsum\n');
      text[650_000] = 0;
      const res = await upload(t, ticketId, 'notes.txt', 'text/plain', text);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual(refusal('application/octet-stream'));
      expect(await storedBytes(t)).toEqual(before);
    });

    it('accepts text with tabs, line endings and terminal colours, in UTF-8 or UTF-16', async () => {
      for (const data of [
        Buffer.from('col\tcol\r\nline\f\v\u001b[31mred\u001b[0m\n'),
        Buffer.from('héllo wörld ✓\n'),
        Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('hello', 'utf16le')]),
      ]) {
        const res = await upload(t, ticketId, 'ok.txt', 'text/plain', data);
        expect(res.statusCode, res.body).toBe(201);
      }
    });
  });
});
