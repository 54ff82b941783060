import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { TestApp } from './test-app.js';

export interface Part {
  name: string;
  filename?: string;
  type?: string;
  data: Buffer | string;
}

/** A multipart/form-data body built by hand, so tests control every byte of it. */
export function multipartBody(parts: Part[]): { payload: Buffer; contentType: string } {
  const boundary = `----vitest${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"`;
    if (part.filename !== undefined) head += `; filename="${part.filename}"`;
    head += '\r\n';
    if (part.type !== undefined) head += `Content-Type: ${part.type}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`, 'utf8'), Buffer.from(part.data), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

export function uploadParts(t: TestApp, ticketId: string, parts: Part[], key: string | null = t.org.adminKey): Promise<LightMyRequestResponse> {
  const { payload, contentType } = multipartBody(parts);
  const headers: Record<string, string> = { 'content-type': contentType };
  if (key) headers.authorization = `Bearer ${key}`;
  return t.app.inject({ method: 'POST', url: `/v1/tickets/${ticketId}/attachments`, payload, headers });
}

export function upload(t: TestApp, ticketId: string, filename: string, type: string, data: Buffer | string, key?: string | null) {
  return uploadParts(t, ticketId, [{ name: 'file', filename, type, data }], key);
}

export async function createTicket(t: TestApp, key: string = t.org.adminKey): Promise<string> {
  const res = await t.request({
    method: 'POST',
    url: '/v1/tickets',
    key,
    body: { customer_name: 'Ada', customer_email: 'ada@example.com', subject: 'Broken', description: 'It broke' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json<{ id: string }>().id;
}

/** Every file under the attachment store, staged or stored. */
export function filesOnDisk(t: TestApp): string[] {
  const root = join(t.dataDir, 'attachments');
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

export const PNG = Buffer.concat([
  Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex'),
  Buffer.from('0000000d4944415478da63f8cfc0f01f0005000201a5c4a9a70000000049454e44ae426082', 'hex'),
]);

/** A small valid-looking body for each allowed type: real leading bytes where they are checked. */
export const SAMPLES: Record<string, Buffer> = {
  'text/plain': Buffer.from('hello, world\n'),
  'text/html': Buffer.from('<!doctype html><p>hi</p>'),
  'application/pdf': Buffer.from('%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n'),
  'image/png': PNG,
  'image/jpeg': Buffer.from('ffd8ffe000104a46494600010100000100010000ffd9', 'hex'),
  'image/gif': Buffer.concat([Buffer.from('GIF89a'), Buffer.from('0100010000000021f90401000000002c00000000010001000002003b', 'hex')]),
  'image/webp': Buffer.concat([Buffer.from('RIFF'), Buffer.from([26, 0, 0, 0]), Buffer.from('WEBPVP8L'), randomBytes(18)]),
  'video/mp4': Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), randomBytes(64)]),
  'video/webm': Buffer.concat([Buffer.from('1a45dfa3', 'hex'), randomBytes(64)]),
  'video/ogg': Buffer.concat([Buffer.from('OggS'), randomBytes(64)]),
  'video/quicktime': Buffer.concat([Buffer.from([0, 0, 0, 0x14]), Buffer.from('ftypqt  '), randomBytes(64)]),
  'application/zip': Buffer.from('504b0506000000000000000000000000000000000000', 'hex'),
  'application/x-7z-compressed': Buffer.concat([Buffer.from('377abcaf271c0004', 'hex'), randomBytes(32)]),
  'application/gzip': Buffer.from('1f8b08000000000000030300000000000000000000', 'hex'),
};

/**
 * Everything the attachment storage holds, whichever backend is configured: files under the data
 * directory (disk), and blob and chunk rows (database; a staged blob shows as `staged:<id>`).
 * Comparing it before and after a request proves that nothing was left behind.
 */
export interface StoredBytes {
  files: string[];
  blobs: string[];
  chunks: number;
}

export async function storedBytes(t: TestApp): Promise<StoredBytes> {
  const blobs = await t.store.db.selectFrom('attachment_blobs').select(['id', 'attachment_id']).orderBy('id').execute();
  const chunks = await t.store.db.selectFrom('attachment_chunks').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  return {
    files: filesOnDisk(t).sort(),
    blobs: blobs.map((b) => (b.attachment_id === null ? `staged:${b.id}` : b.id)),
    chunks: Number(chunks.n),
  };
}

/** Ids of the attachments whose bytes are stored (published, not staged), in either backend. */
export async function storedIds(t: TestApp): Promise<string[]> {
  const { files, blobs } = await storedBytes(t);
  const root = join(t.dataDir, 'attachments', 'files');
  return [...files.filter((f) => f.startsWith(root)).map((f) => f.slice(f.lastIndexOf('/') + 1)), ...blobs.filter((b) => !b.startsWith('staged:'))];
}

/** True when no upload is staged: no file in staging/, no staged blob row. */
export async function nothingStaged(t: TestApp): Promise<boolean> {
  const { files, blobs } = await storedBytes(t);
  return !files.some((f) => f.includes(`${join('attachments', 'staging')}/`)) && !blobs.some((b) => b.startsWith('staged:'));
}
