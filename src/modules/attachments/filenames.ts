import { errors } from '../../errors.js';
import { unstorableText } from '../../shared/validation.js';

/** Longest stored filename, in characters (Unicode code points): what file systems allow in bytes. */
export const MAX_FILENAME_CHARS = 255;
/** An extension this long or shorter is kept when a name is cut to the limit (`.tar.gz` is two). */
const MAX_KEPT_EXTENSION_CHARS = 16;
/** The name of a file part that named none, or nothing but a directory. */
export const UNNAMED_FILE = 'attachment';

/**
 * Characters that change how the rest of a name displays or that no name needs: C0 and C1 controls
 * (U+0000 is refused before this), and the bidirectional embeddings, overrides, isolates and marks
 * that make `résumé\u202Etxt.exe` display as `résuméexe.txt`.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what this replaces
const DISPLAY_CONTROLS = /[\u0001-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * The filename an upload is stored and shown under: the part's filename without any directory
 * (browsers on Windows and some clients send `C:\Users\...\report.pdf`), with display-changing
 * characters replaced by `_`, cut to 255 characters keeping a short extension. A name holding
 * U+0000 is refused (422) like every text of the service. Everything else is kept as sent.
 */
export function storedFilename(sent: string | undefined): string {
  if (sent === undefined) return UNNAMED_FILE;
  const problem = unstorableText(sent);
  if (problem !== null) throw errors.invalidField('body.file.filename', problem);
  const base = sent.slice(Math.max(sent.lastIndexOf('/'), sent.lastIndexOf('\\')) + 1);
  const name = base.replace(DISPLAY_CONTROLS, '_');
  if (name === '' || name === '.' || name === '..') return UNNAMED_FILE;
  const chars = [...name];
  if (chars.length <= MAX_FILENAME_CHARS) return name;
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 && [...name.slice(dot)].length <= MAX_KEPT_EXTENSION_CHARS ? [...name.slice(dot)] : [];
  return [...chars.slice(0, MAX_FILENAME_CHARS - extension.length), ...extension].join('');
}
