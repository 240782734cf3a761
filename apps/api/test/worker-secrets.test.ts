import { loadConfig } from '@hallmark/config';
import { describe, expect, it } from 'vitest';
import { dropWorkerSecrets } from '../src/worker-secrets.ts';

function recordingLogger() {
  const warnings: Array<{ fields: unknown; message: string }> = [];
  const logger = {
    warn: (fields: unknown, message: string) => warnings.push({ fields, message }),
  } as unknown as Parameters<typeof dropWorkerSecrets>[2];
  return { logger, warnings };
}

describe("the API keeps none of the worker's secrets", () => {
  it('drops the minter key and the signing key from its configuration and environment, and says so', () => {
    const env: NodeJS.ProcessEnv = {
      CHAIN_MINTER_KEY: `0x${'1'.repeat(64)}`,
      C2PA_CERT_CHAIN_PATH: '/run/secrets/chain.pem',
      C2PA_PRIVATE_KEY_PATH: '/run/secrets/key.pem',
      PORT: '3000',
    };
    const { logger, warnings } = recordingLogger();
    const config = dropWorkerSecrets(loadConfig(env), env, logger);
    expect(config.CHAIN_MINTER_KEY).toBeUndefined();
    expect(config.C2PA_PRIVATE_KEY_PATH).toBeUndefined();
    // What the API does use stays: the chain is its trust anchor.
    expect(config.C2PA_CERT_CHAIN_PATH).toBe('/run/secrets/chain.pem');
    expect(Object.keys(env).sort()).toEqual(['C2PA_CERT_CHAIN_PATH', 'PORT']);
    expect(warnings).toEqual([
      {
        fields: { settings: ['CHAIN_MINTER_KEY', 'C2PA_PRIVATE_KEY_PATH'] },
        message: expect.stringContaining('give them to the worker alone'),
      },
    ]);
  });

  it('is silent when the deployment gives the API nothing of the kind', () => {
    const { logger, warnings } = recordingLogger();
    const config = loadConfig({});
    expect(dropWorkerSecrets(config, {}, logger)).toBe(config);
    expect(warnings).toEqual([]);
  });
});
