import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { openStore } from '../db/store.js';
import { openBlobStore } from '../storage/open-blob-store.js';
import { packageInfo } from './package-info.js';

/** The server address written into the committed document: the default PUBLIC_URL. */
export const DOCUMENT_PUBLIC_URL = 'http://127.0.0.1:8080';

/** Where the committed document lives: `openapi.json` at the project's root. */
export const documentPath = (): string => join(packageInfo().root, 'openapi.json');

/**
 * Builds the app with a fixed configuration (nothing from the environment, so the result is the
 * same on every machine) and returns its OpenAPI document. The store is an empty SQLite file in a
 * temporary directory: building the app needs one, generating the document never queries it.
 */
export async function generateOpenApiDocument(): Promise<Record<string, unknown>> {
  const dataDir = mkdtempSync(join(tmpdir(), 'ticketing-openapi-'));
  try {
    const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: dataDir, PUBLIC_URL: DOCUMENT_PUBLIC_URL, DOCS_ENABLED: 'true' });
    const store = openStore({ dataDir });
    try {
      const app = await buildApp({ config, store, blobs: openBlobStore(config, store) });
      try {
        await app.ready();
        return app.swagger() as Record<string, unknown>;
      } finally {
        await app.close();
      }
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The document as committed: two-space JSON with a final newline. */
export const serializeDocument = (document: unknown): string => `${JSON.stringify(document, null, 2)}\n`;
