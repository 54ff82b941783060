import { cleanup, configure } from '@testing-library/react';
import { afterEach, expect } from 'vitest';
import { fakeFetch, resetNetwork, unanswered } from './fake-api.js';

// Before any test file imports web/src/api.ts, whose SDK client keeps the fetch it finds.
globalThis.fetch = fakeFetch;

// A loaded two-core machine renders hundreds of rows slowly.
configure({ asyncUtilTimeout: 10_000 });

afterEach(() => {
  cleanup();
  const missed = unanswered.splice(0);
  resetNetwork();
  sessionStorage.clear();
  expect(missed, 'requests no route of the test answered').toEqual([]);
});
