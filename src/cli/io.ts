import type { Readable } from 'node:stream';

/** Where the CLI writes: results alone on `stdout`, every human message on `stderr`. */
export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** Where `import` reads when no --in is given; standard input by default. */
  stdin?: Readable;
}

/** A mistake in how the command was called: usage is printed, exit code 2. */
export class UsageError extends Error {}

/** A request the command understood but cannot carry out: one line, exit code 1. */
export class CliError extends Error {}

/** Writes a table with a header row, columns padded to their widest cell, to `out`. */
export function writeTable(out: CliIo['stdout'], columns: readonly string[], rows: string[][]): void {
  const all = [[...columns], ...rows];
  const widths = columns.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  for (const row of all) out.write(`${row.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()}\n`);
}

/** The first line of a stream, without its line ending (passwords are read so, never from options). */
export async function firstLine(input: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of input) {
    text += typeof chunk === 'string' ? chunk : (chunk).toString('utf8');
    if (text.includes('\n')) break;
  }
  return text.split('\n')[0]!.replace(/\r$/, '');
}
