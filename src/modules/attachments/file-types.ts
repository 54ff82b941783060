import { Transform, type TransformCallback } from 'node:stream';
import { errors } from '../../errors.js';

/** The MIME types an upload may declare; any other is refused. */
export const ALLOWED_TYPES: ReadonlySet<string> = new Set([
  'text/plain',
  'text/html',
  'application/pdf',
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
  'video/mp4',
  'video/webm',
  'video/ogg',
  'video/quicktime',
  'application/zip',
  'application/x-7z-compressed',
  'application/gzip',
]);

/** `Image/PNG; charset=x` → `image/png`: the part's type, lower-cased, parameters dropped. */
export function normalizeMimeType(value: string | undefined): string {
  return (value ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

interface Signature {
  type: string;
  matches(head: Buffer): boolean;
}

const startsWith = (bytes: number[] | string, offset = 0) => {
  const expected = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : Buffer.from(bytes);
  return (head: Buffer) => head.length >= offset + expected.length && head.subarray(offset, offset + expected.length).equals(expected);
};

/**
 * Leading-byte signatures. The first group are the types whose content is checked against their
 * declared type; the rest only serve to name what a mismatching file really is.
 */
const SIGNATURES: Signature[] = [
  { type: 'image/png', matches: startsWith([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { type: 'image/jpeg', matches: startsWith([0xff, 0xd8, 0xff]) },
  { type: 'image/gif', matches: (h) => startsWith('GIF87a')(h) || startsWith('GIF89a')(h) },
  { type: 'image/webp', matches: (h) => startsWith('RIFF')(h) && startsWith('WEBP', 8)(h) },
  // Readers accept a PDF header anywhere in the first kilobyte, so some valid files have a prefix.
  { type: 'application/pdf', matches: (h) => h.subarray(0, 1024).includes('%PDF-', 0, 'latin1') },
  {
    type: 'application/zip',
    // Local file header, empty archive, spanned archive.
    matches: (h) => startsWith('PK\x03\x04')(h) || startsWith('PK\x05\x06')(h) || startsWith('PK\x07\x08')(h),
  },
  { type: 'application/x-7z-compressed', matches: startsWith([0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c]) },
  { type: 'application/gzip', matches: startsWith([0x1f, 0x8b]) },
  { type: 'application/x-msdownload', matches: startsWith('MZ') },
  { type: 'application/x-executable', matches: startsWith('\x7fELF') },
  { type: 'video/webm', matches: startsWith([0x1a, 0x45, 0xdf, 0xa3]) },
  { type: 'video/ogg', matches: startsWith('OggS') },
  { type: 'video/mp4', matches: startsWith('ftyp', 4) },
  { type: 'image/bmp', matches: startsWith('BM') },
  { type: 'image/tiff', matches: (h) => startsWith('II*\x00')(h) || startsWith('MM\x00*')(h) },
  { type: 'application/x-rar-compressed', matches: startsWith('Rar!\x1a\x07') },
];

const CHECKED: ReadonlySet<string> = new Set(SIGNATURES.slice(0, 8).map((s) => s.type));

/** How many leading bytes the check looks at. */
export const SNIFF_BYTES = 1024;

/** The type the leading bytes show, or null when they show none this module knows. */
export function detectType(head: Buffer): string | null {
  // A PDF header may follow a prefix, so it must not shadow a signature at offset 0.
  const exact = SIGNATURES.find((s) => s.type !== 'application/pdf' && s.matches(head));
  if (exact) return exact.type;
  return SIGNATURES.find((s) => s.type === 'application/pdf' && s.matches(head))?.type ?? null;
}

/**
 * For images, PDF and archives: the type the content shows when it is not the declared one
 * ('application/octet-stream' when it shows no known type), or null when the content fits.
 */
export function contentMismatch(declared: string, head: Buffer): string | null {
  if (!CHECKED.has(declared)) return null;
  const own = SIGNATURES.find((s) => s.type === declared);
  const detected = detectType(head);
  if (own?.matches(head) && (detected === declared || detected === null || !CHECKED.has(detected))) return null;
  return detected ?? 'application/octet-stream';
}

/** Types that must really be text: they are shown and opened as text, never run. */
const TEXT_TYPES: ReadonlySet<string> = new Set(['text/plain', 'text/html']);

/**
 * Bytes no text file holds: NUL and the C0 controls other than tab, line feed, vertical tab, form
 * feed, carriage return and escape (kept for terminal logs). Executables, images and archives show
 * them within their first bytes; text in any ASCII-compatible encoding never does.
 */
// eslint-disable-next-line no-control-regex -- control bytes are exactly what this looks for
const BINARY_BYTE = /[\x00-\x08\x0e-\x1a\x1c-\x1f]/;

/** UTF-16 and UTF-32 text is full of NUL bytes; it is recognised by its byte order mark. */
const hasWideBom = (head: Buffer): boolean =>
  (head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff) || (head[0] === 0 && head[1] === 0 && head[2] === 0xfe && head[3] === 0xff);

const looksBinary = (bytes: Buffer): boolean => BINARY_BYTE.test(bytes.toString('latin1'));

/**
 * A pass-through stream that holds back the first SNIFF_BYTES bytes until it has checked them
 * against the declared type, so a mismatching upload fails before most of it is written. Files
 * declared as text are also checked to the last byte: a binary byte anywhere fails the upload,
 * naming what the leading bytes look like (an `.exe` declared text/plain is not text).
 */
export class SignatureCheck extends Transform {
  private head: Buffer[] = [];
  private headLength = 0;
  private checked = false;
  private readonly text: boolean;
  private wide = false;

  constructor(private readonly declared: string) {
    super();
    this.text = TEXT_TYPES.has(declared);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (this.checked) {
      if (this.text && !this.wide && looksBinary(chunk)) callback(errors.fileContentMismatch(this.declared, 'application/octet-stream'));
      else callback(null, chunk);
      return;
    }
    this.head.push(chunk);
    this.headLength += chunk.length;
    if (this.headLength < SNIFF_BYTES) {
      callback();
      return;
    }
    this.release(callback);
  }

  override _flush(callback: TransformCallback): void {
    if (this.checked) callback();
    else this.release(callback);
  }

  private release(callback: TransformCallback): void {
    const head = Buffer.concat(this.head);
    this.head = [];
    this.checked = true;
    let detected = contentMismatch(this.declared, head);
    if (detected === null && this.text) {
      this.wide = hasWideBom(head);
      if (!this.wide && looksBinary(head)) detected = detectType(head) ?? 'application/octet-stream';
    }
    if (detected !== null) callback(errors.fileContentMismatch(this.declared, detected));
    else callback(null, head);
  }
}
