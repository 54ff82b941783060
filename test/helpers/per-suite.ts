import { afterAll, vi } from 'vitest';

/**
 * Run before every suite of the store projects, whose worker processes go from one suite to the
 * next keeping what is loaded (vitest.config.ts): whatever a suite changes of the process for
 * itself is put back when it ends, so the next suite starts as it would in a fresh process.
 */
afterAll(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});
