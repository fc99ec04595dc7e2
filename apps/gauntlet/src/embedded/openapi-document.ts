import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../config/config';
import { createLogger } from '../platform/logger';
import { createRuntime } from '../runtime';
import { createHttpApp } from '../server';

/**
 * The OpenAPI document exactly as the service serves it at /api/openapi.json: the HTTP app built
 * on the embedded default in a throwaway DATA_DIR and asked in-process (nothing listens), then closed.
 */
export async function servedOpenApiDocument(): Promise<unknown> {
  const dataDir = mkdtempSync(join(tmpdir(), 'gauntlet-openapi-'));
  const config = loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const runtime = await createRuntime(config, createLogger(config.logLevel));
  try {
    const app = await createHttpApp(runtime);
    try {
      const res = await app.getHttpAdapter().getInstance().inject({ method: 'GET', url: '/api/openapi.json' });
      if (res.statusCode !== 200) throw new Error(`/api/openapi.json answered ${res.statusCode}`);
      return JSON.parse(res.body);
    } finally {
      await app.close();
    }
  } finally {
    await runtime.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
