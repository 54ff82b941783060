/** Where the CLI writes: results alone on `stdout`, every human message on `stderr`. */
export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

/** A mistake in how the command was called: usage is printed, exit code 2. */
export class UsageError extends Error {}

/** A request the command understood but cannot carry out: one line, exit code 1. */
export class CliError extends Error {}
